/**
 * The plugin's settings (contributes.configuration), read as in the Theia IDE: the host-controlled
 * ones (sandy.path, sandy.passEnvironment) only through core's rule, from `inspect()`'s user and
 * default values — never `get()`, which merges a workspace's value wherever VS Code (or another
 * editor implementing its API, such as Theia's plugin host) lets one through.
 *
 * No runtime `vscode` import, so the unit spec can hand in a configuration of its own.
 */
import type { SettingInspection, IgnoredHostSetting } from '@sandy-ui/core/common';
import { readHostSandyConfiguration } from '@sandy-ui/core/common';
import type { SandyConfiguration } from '@sandy-ui/core/common';

/** The slice of `vscode.WorkspaceConfiguration` for the `sandy` section that the plugin reads. */
export interface SandySectionLike {
    get<T>(section: string): T | undefined;
    inspect<T>(section: string): SettingInspection<T> | undefined;
}

export interface SandySettings {
    /** What sandy is run with: the user's sandy.path and sandy.passEnvironment, or the defaults. */
    sandy: SandyConfiguration;
    /** Workspace or folder values of host-controlled settings that were ignored (as far as inspect() shows them). */
    ignored: IgnoredHostSetting[];
}

const SECTION = 'sandy.';

export function readSandySettings(config: SandySectionLike): SandySettings {
    const { config: sandy, ignored } = readHostSandyConfiguration(key => config.inspect(key.slice(SECTION.length)));
    return { sandy, ignored };
}
