// @theia/cli depends on puppeteer, whose postinstall downloads Chrome. The download cannot work on
// offline machines and is never used: our end-to-end tests drive Debian's /usr/bin/chromium with
// playwright-core. Puppeteer finds this file by searching upwards from its own install folder.
module.exports = { skipDownload: true };
