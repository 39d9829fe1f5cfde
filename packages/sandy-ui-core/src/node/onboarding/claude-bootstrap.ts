import type { BootstrapProposal } from '../../common/onboarding/onboarding-dto';
/**
 * Settings bootstrap for a newcomer who already uses Claude Code (spec open question 9): defaults for
 * `~/.sandy/config` taken from `~/.claude/settings.json`, proposed (shown to the user) and never
 * written here. Accepting the proposal goes through the settings save path (`SettingsService.saveSettings`,
 * Global scope), which validates it with sandy.
 *
 * `settings.json` is the user's file, but anything may have written it (Claude Code, a dotfiles tool, an
 * agent with a writable home), so it is read bounded through the one config reader (no symlink, no FIFO,
 * no device; at most {@link CLAUDE_SETTINGS_MAX_BYTES}), and a value is proposed only when it matches
 * the sandy key's own pattern. Anything else proposes nothing; nothing here throws.
 */
import * as fs from 'fs';
import * as path from 'path';
import { getEffectiveValues, parseConfigFile } from '../../common/config/config-file';
import { readConfigFileSync } from '../config/config-io';


export interface ClaudeBootstrapOptions {
    /** The user's home folder (`~/.claude` is below it). */
    readonly home: string;
    /** `$SANDY_HOME` as the launched sandy sees it (`SandyDiscovery.launchSandyHome`). */
    readonly sandyHome: string;
}

/** The largest `~/.claude/settings.json` looked at; real ones are a few KiB. */
export const CLAUDE_SETTINGS_MAX_BYTES = 256 * 1024;

/** SANDY_MODEL's pattern in sandy's schema (`config.passive_keys`, sandy 1.7.1). */
export const SANDY_MODEL_PATTERN = /^[a-zA-Z0-9._-]+$/;

/** Longer than any model id; the schema's pattern alone has no bound. */
const MODEL_MAX_LENGTH = 200;

const SOURCE = '~/.claude/settings.json';

function readClaudeSettings(home: string): unknown {
    const dir = path.join(home, '.claude');
    const file = path.join(dir, 'settings.json');
    try {
        // Looked at first so a big file is not read at all; the reader below re-checks it is a regular file.
        const stat = fs.lstatSync(file);
        if (!stat.isFile() || stat.size > CLAUDE_SETTINGS_MAX_BYTES) {
            return undefined;
        }
        const read = readConfigFileSync(file, { root: dir });
        if (!read.exists || read.invalidUtf8 || Buffer.byteLength(read.text) > CLAUDE_SETTINGS_MAX_BYTES) {
            return undefined;
        }
        return JSON.parse(read.text);
    } catch {
        return undefined;
    }
}

/** Keys already set in `$SANDY_HOME/config` or `.secrets` (an entry line, whatever its value); undefined when one cannot be read. */
function keysAlreadySet(sandyHome: string): Set<string> | undefined {
    const keys = new Set<string>();
    try {
        for (const name of ['config', '.secrets']) {
            const read = readConfigFileSync(path.join(sandyHome, name), { root: sandyHome });
            Object.keys(getEffectiveValues(parseConfigFile(read.text))).forEach(k => keys.add(k));
        }
    } catch {
        return undefined;
    }
    return keys;
}

/**
 * What to propose for `~/.sandy/config` from `~/.claude/settings.json`: today SANDY_MODEL from its
 * `model`, when that is a plain model id and SANDY_MODEL is not set in `$SANDY_HOME/config` or
 * `.secrets` yet (a `.secrets` line would win over a new config line). Empty when there is nothing to
 * propose or a file cannot be read.
 */
export async function proposeClaudeBootstrap(opts: ClaudeBootstrapOptions): Promise<BootstrapProposal[]> {
    const settings = readClaudeSettings(opts.home);
    if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
        return [];
    }
    const model = Object.prototype.hasOwnProperty.call(settings, 'model') ? (settings as Record<string, unknown>).model : undefined;
    if (typeof model !== 'string' || model.length > MODEL_MAX_LENGTH || !SANDY_MODEL_PATTERN.test(model)) {
        return [];
    }
    const set = keysAlreadySet(opts.sandyHome);
    if (!set || set.has('SANDY_MODEL')) {
        return [];
    }
    return [{ key: 'SANDY_MODEL', value: model, from: SOURCE }];
}
