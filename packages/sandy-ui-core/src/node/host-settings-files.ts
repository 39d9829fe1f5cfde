/**
 * Which workspace settings files name a host-controlled setting, for the "ignored" notice only.
 * VS Code drops a workspace's value of an application-scope setting before any extension can
 * inspect() it, so a host that must say what it ignored looks at the files themselves. Nothing read
 * here is ever a value.
 */
import { promises as fsp } from 'fs';
import { HostControlledSetting, hostSettingsNamedIn } from '../common/host-settings';

/** A settings file is small; a bigger one (or a FIFO, a device) is not read for a notice. */
const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

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
            const stat = await fsp.stat(file);
            if (!stat.isFile() || stat.size > MAX_SETTINGS_FILE_BYTES) {
                continue;
            }
            text = await fsp.readFile(file, 'utf8');
        } catch {
            continue;
        }
        for (const key of hostSettingsNamedIn(text)) {
            found.push({ key, file });
        }
    }
    return found;
}
