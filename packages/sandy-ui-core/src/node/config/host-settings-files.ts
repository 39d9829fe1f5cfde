/**
 * Which workspace settings files name a host-controlled setting, for the "ignored" notice only.
 * VS Code drops a workspace's value of an application-scope setting before any extension can
 * inspect() it, so a host that must say what it ignored looks at the files themselves. Nothing read
 * here is ever a value.
 */
import { HostControlledSetting, hostSettingsNamedIn } from '../../common/host/host-settings';
import { readConfigFile } from './config-io';

export interface HostSettingInFile {
    key: HostControlledSetting;
    file: string;
}

/** The host-controlled settings each of `files` names; a missing or unreadable file names none. */
export async function hostSettingsInFiles(files: readonly string[]): Promise<HostSettingInFile[]> {
    const found: HostSettingInFile[] = [];
    for (const file of files) {
        let text: string;
        try {
            // The one bounded reader: no FIFO, device, link or oversized file is read for a notice.
            const read = await readConfigFile(file);
            if (!read.exists) {
                continue;
            }
            text = read.text;
        } catch {
            continue;
        }
        for (const key of hostSettingsNamedIn(text)) {
            found.push({ key, file });
        }
    }
    return found;
}
