import { expect } from 'chai';
import { cookieValues, GuardRequest, HostGuard, HostGuardOptions, HostGuardVerdict, parseHostHeader, printable } from './host-guard';

const PORT = 3000;
const OWN = `127.0.0.1:${PORT}`;

function req(headers: Record<string, string>, method = 'GET', url = '/'): GuardRequest {
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
        lower[k.toLowerCase()] = v;
    }
    return { headers: lower, method, url };
}

function guard(options: Partial<HostGuardOptions> = {}): HostGuard {
    return new HostGuard({ allowedHosts: [], ...options });
}

function refusal(verdict: HostGuardVerdict): string {
    expect(verdict.ok, 'expected a refusal').to.equal(false);
    return verdict.ok ? '' : verdict.reason;
}

function allowed(verdict: HostGuardVerdict): void {
    expect(verdict.ok, verdict.ok ? '' : verdict.reason).to.equal(true);
}

/** A WebSocket upgrade as engine.io sees it. */
function upgrade(headers: Record<string, string>): GuardRequest {
    return req({ Upgrade: 'websocket', Connection: 'Upgrade', ...headers }, 'GET', '/socket.io/?EIO=4&transport=websocket');
}

describe('HostGuard (unit)', () => {
    describe('Host header (DNS rebinding)', () => {
        it('accepts loopback names and configured hosts, refuses any other name', () => {
            for (const host of [OWN, `localhost:${PORT}`, `[::1]:${PORT}`, `127.1.2.3:${PORT}`, `dev.localhost:${PORT}`, '127.0.0.1']) {
                allowed(guard().check(req({ Host: host })));
            }
            expect(refusal(guard().check(req({ Host: `evil.example:${PORT}` })))).to.equal(`Host evil.example:${PORT} is not this IDE`);
            expect(refusal(guard().check(req({})))).to.equal('Host (none) is not this IDE');
            allowed(guard({ allowedHosts: ['IDE.lan'] }).check(req({ Host: `ide.lan:${PORT}` })));
            refusal(guard({ allowedHosts: ['ide.lan'] }).check(req({ Host: `ide.lan.evil.example:${PORT}` })));
        });

        it('refuses a Host header that is not a plain name[:port]', () => {
            for (const host of [`evil.example@127.0.0.1:${PORT}`, `127.0.0.1:${PORT}/x`, '127.0.0.1:99999', `127.0.0.1 :${PORT}`, '[::1']) {
                refusal(guard().check(req({ Host: host })));
            }
        });

        it('parses names and ports', () => {
            expect(parseHostHeader('[::1]:8080')).to.deep.equal({ hostname: '[::1]', port: 8080 });
            expect(parseHostHeader('LocalHost')).to.deep.equal({ hostname: 'localhost', port: undefined });
            expect(parseHostHeader('a@b')).to.equal(undefined);
        });
    });

    describe('Origin: one origin, exactly', () => {
        it('allows the app\'s own origin (scheme, host and port)', () => {
            allowed(guard().check(req({ Host: OWN, Origin: `http://${OWN}` }, 'POST', '/file-upload')));
            allowed(guard().check(req({ Host: `localhost:${PORT}`, Origin: `http://localhost:${PORT}` }, 'POST')));
            allowed(guard().check(upgrade({ Host: OWN, Origin: `http://${OWN}` })));
        });

        it('refuses another port on 127.0.0.1 and on localhost, for GET, POST and WebSocket alike', () => {
            for (const [host, origin] of [[OWN, 'http://127.0.0.1:5173'], [`localhost:${PORT}`, 'http://localhost:5173'], [OWN, 'http://localhost:5173']]) {
                expect(refusal(guard().check(req({ Host: host, Origin: origin }, 'POST', '/file-upload')))).to.equal(`Origin ${origin} is not this IDE`);
                refusal(guard().check(req({ Host: host, Origin: origin })));
                expect(refusal(guard().check(upgrade({ Host: host, Origin: origin })))).to.equal(`Origin ${origin} is not this IDE`);
            }
        });

        it('refuses another loopback alias or scheme with the app\'s own port', () => {
            refusal(guard().check(req({ Host: OWN, Origin: `http://localhost:${PORT}` }, 'POST')));
            refusal(guard().check(req({ Host: OWN, Origin: `https://${OWN}` }, 'POST')));
            refusal(guard({ scheme: 'https' }).check(req({ Host: OWN, Origin: `http://${OWN}` }, 'POST')));
            allowed(guard({ scheme: 'https' }).check(req({ Host: OWN, Origin: `https://${OWN}` }, 'POST')));
        });

        it('refuses the opaque origin `null` (sandboxed frames, data: and file: pages, redirects)', () => {
            expect(refusal(guard().check(req({ Host: OWN, Origin: 'null' }, 'POST', '/file-upload')))).to.equal('Origin null is not this IDE');
            refusal(guard().check(upgrade({ Host: OWN, Origin: 'null' })));
            refusal(guard().check(upgrade({ Host: OWN, Origin: 'file://' })));
        });

        it('refuses a foreign site and a malformed Origin', () => {
            expect(refusal(guard().check(req({ Host: OWN, Origin: 'http://evil.example' })))).to.equal('Origin http://evil.example is not this IDE');
            refusal(guard().check(req({ Host: OWN, Origin: 'not a url' }, 'POST')));
            refusal(guard().check(req({ Host: OWN, Origin: `http://${OWN}/path` }, 'POST')));
        });

        it('accepts IPv6 loopback with its own port only', () => {
            allowed(guard().check(upgrade({ Host: `[::1]:${PORT}`, Origin: `http://[::1]:${PORT}` })));
            allowed(guard().check(req({ Host: `[::1]:${PORT}`, Origin: `http://[::1]:${PORT}` }, 'POST')));
            refusal(guard().check(upgrade({ Host: `[::1]:${PORT}`, Origin: 'http://[::1]:5173' })));
        });

        it('compares with default ports dropped, as browsers serialise an Origin', () => {
            allowed(guard().check(req({ Host: '127.0.0.1:80', Origin: 'http://127.0.0.1' }, 'POST')));
            allowed(guard({ scheme: 'https' }).check(req({ Host: 'localhost', Origin: 'https://localhost' }, 'POST')));
        });
    });

    describe('Sec-Fetch-Site', () => {
        it('refuses cross-site and same-site requests without Origin, whatever the method', () => {
            for (const site of ['cross-site', 'same-site']) {
                for (const method of ['GET', 'POST', 'HEAD']) {
                    expect(refusal(guard().check(req({ Host: OWN, 'Sec-Fetch-Site': site }, method, '/files/?uri=file:///etc/passwd'))))
                        .to.equal(`a ${site} request (Sec-Fetch-Site) is not from this IDE's page`);
                }
            }
        });

        it('allows same-origin and none (typed address, bookmark)', () => {
            allowed(guard().check(req({ Host: OWN, 'Sec-Fetch-Site': 'none' })));
            allowed(guard().check(req({ Host: OWN, 'Sec-Fetch-Site': 'same-origin' }, 'GET', '/bundle.js')));
            allowed(guard().check(req({ Host: OWN, 'Sec-Fetch-Site': 'same-origin', Origin: `http://${OWN}` }, 'PUT', '/files')));
        });
    });

    describe('state-changing requests must prove where they come from', () => {
        it('refuses a POST with neither Origin nor Sec-Fetch-Site, even with every cookie', () => {
            const cookie = 'theia-connection-token=valid; sandy-ide-token=valid';
            expect(refusal(guard().check(req({ Host: OWN, Cookie: cookie }, 'POST', '/file-upload'))))
                .to.equal('POST without Origin or Sec-Fetch-Site: same-origin is not from this IDE\'s page');
            refusal(guard({ token: 'valid' }).check(req({ Host: OWN, Cookie: cookie }, 'PUT', '/files')));
            refusal(guard().check(req({ Host: OWN }, 'DELETE')));
        });

        it('refuses a WebSocket upgrade with neither Origin nor Sec-Fetch-Site', () => {
            expect(refusal(guard().check(upgrade({ Host: OWN }))))
                .to.equal('a WebSocket upgrade without Origin or Sec-Fetch-Site: same-origin is not from this IDE\'s page');
            allowed(guard().check(upgrade({ Host: OWN, 'Sec-Fetch-Site': 'same-origin' })));
        });

        it('allows a POST proven by Sec-Fetch-Site: same-origin alone', () => {
            allowed(guard().check(req({ Host: OWN, 'Sec-Fetch-Site': 'same-origin' }, 'POST')));
        });

        it('allows GET, HEAD and OPTIONS without either (static resources, plain-http LAN browsers send no Sec-Fetch-*)', () => {
            for (const method of ['GET', 'HEAD', 'OPTIONS']) {
                allowed(guard().check(req({ Host: OWN }, method, '/bundle.js')));
            }
            // socket.io's long-polling handshake is a GET too (engine.io asks the guard at that handshake).
            allowed(guard().check(req({ Host: OWN }, 'GET', '/socket.io/?EIO=4&transport=polling')));
        });
    });

    describe('plugin webviews (<uuid>.webview.<host>)', () => {
        const webviewHost = `3f2a9c1e-1111-4222-8333-944445555666.webview.localhost:${PORT}`;

        it('serve GET and HEAD of the /webview/ shell, whatever Sec-Fetch-Site (an iframe of the app is cross-site)', () => {
            for (const method of ['GET', 'HEAD']) {
                allowed(guard().check(req({ Host: webviewHost, 'Sec-Fetch-Site': 'cross-site' }, method, '/webview/index.html?id=x')));
            }
            allowed(guard().check(req({ Host: webviewHost, 'Sec-Fetch-Site': 'same-origin' }, 'GET', '/webview/service-worker.js?v=4')));
            allowed(guard().check(req({ Host: webviewHost, Origin: `http://${webviewHost}` }, 'GET', '/webview/main.js')));
            allowed(guard().check(req({ Host: webviewHost, Origin: `http://localhost:${PORT}` }, 'GET', '/webview/host.js')));
        });

        it('serve nothing else: no upload, no download, no socket, no other origin', () => {
            const own = `http://${webviewHost}`;
            expect(refusal(guard().check(req({ Host: webviewHost, Origin: own }, 'POST', '/file-upload'))))
                .to.equal('POST /file-upload on a webview origin is not allowed');
            refusal(guard().check(req({ Host: webviewHost, 'Sec-Fetch-Site': 'same-origin' }, 'GET', '/files/?uri=file:///etc/passwd')));
            refusal(guard().check(req({ Host: webviewHost, 'Sec-Fetch-Site': 'same-origin' }, 'GET', '/socket.io/?EIO=4&transport=polling')));
            refusal(guard().check(req({ Host: webviewHost, 'Sec-Fetch-Site': 'same-origin' }, 'GET', '/')));
            refusal(guard().check(req({ Host: webviewHost }, 'GET', '/webview/../files/?uri=file:///etc/passwd')));
            refusal(guard().check(req({ Host: webviewHost }, 'GET', '/webview/%2e%2e/files/?uri=file:///etc/passwd')));
            expect(refusal(guard().check(upgrade({ Host: webviewHost, Origin: own })))).to.equal('a WebSocket upgrade on a webview origin is not allowed');
            refusal(guard().check(req({ Host: webviewHost, Origin: 'http://localhost:5173' }, 'GET', '/webview/index.html')));
            refusal(guard().check(req({ Host: `x.webview.evil.example:${PORT}` }, 'GET', '/webview/index.html')));
        });

        it('never get the token cookie, and need no token for the shell', () => {
            const verdict = guard({ token: 'secret', allowedHosts: ['ide.lan'] })
                .check(req({ Host: `abc.webview.ide.lan:${PORT}` }, 'GET', '/webview/index.html'));
            expect(verdict).to.deep.equal({ ok: true, setTokenCookie: false });
        });
    });

    describe('token beyond loopback', () => {
        const lan = guard({ token: 'secret', allowedHosts: ['ide.lan'] });
        const host = `ide.lan:${PORT}`;

        it('allows an allowed LAN host with the token (query sets the cookie, cookie suffices)', () => {
            expect(lan.check(req({ Host: host }, 'GET', '/?token=secret'))).to.deep.equal({ ok: true, setTokenCookie: true });
            expect(lan.check(req({ Host: host, Cookie: 'sandy-ide-token=secret' }))).to.deep.equal({ ok: true, setTokenCookie: false });
            allowed(lan.check(upgrade({ Host: host, Origin: `http://${host}`, Cookie: 'a=b; sandy-ide-token=secret' })));
        });

        it('refuses without the token, or with a wrong one, and says how to get it', () => {
            const verdict = lan.check(req({ Host: host }));
            expect(refusal(verdict)).to.equal('missing or wrong access token');
            expect(!verdict.ok && verdict.advice).to.equal(`open the IDE once at http://${host}/?token=<the value of SANDY_IDE_TOKEN>`);
            refusal(lan.check(req({ Host: host, Cookie: 'sandy-ide-token=guess' })));
            refusal(lan.check(req({ Host: host }, 'GET', '/?token=guess')));
        });

        it('still refuses another port on the LAN host, token or not', () => {
            refusal(lan.check(upgrade({ Host: host, Origin: 'http://ide.lan:8080', Cookie: 'sandy-ide-token=secret' })));
            refusal(lan.check(req({ Host: host, Origin: 'http://ide.lan:8080', Cookie: 'sandy-ide-token=secret' }, 'POST', '/file-upload')));
        });
    });

    describe('malformed cookies', () => {
        const tokenGuard = guard({ token: 'secret' });

        it('answers a badly encoded token cookie with a 400 and a one-line reason, never a throw', () => {
            const verdict = tokenGuard.check(req({ Host: OWN, Cookie: 'sandy-ide-token=%E0%A4%A' }));
            expect(verdict).to.deep.include({ ok: false, status: 400, reason: 'the sandy-ide-token cookie is malformed' });
            expect(!verdict.ok && verdict.advice).to.match(/\?token=.* to replace it$/);
        });

        it('ignores another app\'s badly encoded cookie (cookies ignore ports)', () => {
            allowed(tokenGuard.check(req({ Host: OWN, Cookie: 'other=%E0%A4%A; sandy-ide-token=secret' })));
            expect(refusal(tokenGuard.check(req({ Host: OWN, Cookie: 'other=%E0%A4%A' })))).to.equal('missing or wrong access token');
            allowed(guard().check(req({ Host: OWN, Cookie: 'sandy-ide-token=%E0%A4%A' })));
        });

        it('accepts the token from the query over a malformed cookie (and repairs the cookie), or from any of several cookies', () => {
            expect(tokenGuard.check(req({ Host: OWN, Cookie: 'sandy-ide-token=%E0%A4%A' }, 'GET', '/?token=secret'))).to.deep.equal({ ok: true, setTokenCookie: true });
            allowed(tokenGuard.check(req({ Host: OWN, Cookie: 'sandy-ide-token=%E0%A4%A; sandy-ide-token=secret' })));
            allowed(tokenGuard.check(req({ Host: OWN, Cookie: 'sandy-ide-token="secret"' })));
        });

        it('decodes only the named cookie', () => {
            expect(cookieValues('a=%E0; b=x%20y; b=%E0', 'b')).to.deep.equal([{ value: 'x y' }, { value: undefined }]);
            expect(cookieValues(undefined, 'b')).to.deep.equal([]);
        });
    });

    describe('Electron target', () => {
        it('takes the file:// frontend for its own (Theia\'s Electron token gates every request there)', () => {
            const electron = guard({ electron: true });
            allowed(electron.check(upgrade({ Host: `localhost:${PORT}`, Origin: 'file://' })));
            allowed(electron.check(req({ Host: `localhost:${PORT}`, Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }, 'POST', '/file-upload')));
            refusal(electron.check(upgrade({ Host: `localhost:${PORT}`, Origin: 'http://localhost:5173' })));
        });
    });

    it('keeps what it echoes printable and short', () => {
        expect(printable('a\u001b[31mb\nc')).to.equal('a?[31mb?c');
        expect(printable('x'.repeat(300))).to.have.length(201);
        expect(refusal(guard().check(req({ Host: OWN, Origin: 'http://e\u001bvil' })))).to.equal('Origin http://e?vil is not this IDE');
    });
});
