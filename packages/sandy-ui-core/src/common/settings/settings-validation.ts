/**
 * Value validation the way sandy will judge the value at launch.
 *
 * Why it lives here: `sandy --validate-config` checks no values at all (CONTRACT §0.2); bad enums,
 * patterns and agent lists only surface as a fatal `exit 1` at the next launch (§3.4). So the form
 * checks what sandy will check, and a field that would be refused cannot be saved — without stopping
 * the other fields from saving.
 */
import { formatValue } from '../config/config-file';
import { findWorldOpenLanEntries } from '../config/preflight';
import { SANDY_AGENT_NAMES, validateAgentCombo } from './agent-combo';
import type { SettingsField } from './settings-fields';

/** Checks sandy makes at launch beyond the schema (CONTRACT §3.4). */
const LAUNCH_CHECKS: Readonly<Record<string, (value: string) => string | undefined>> = {
    // The schema pattern is looser than the launch check (CONTRACT D10).
    SANDY_LOCAL_LLM_HOST: value => {
        if (!/^[A-Za-z0-9._-]+:[0-9]+$/.test(value)) {
            return 'sandy only accepts host:port with letters, digits, ".", "_" or "-" in the host (e.g. 127.0.0.1:11434).';
        }
        const colon = value.lastIndexOf(':');
        const host = value.slice(0, colon);
        const port = Number(value.slice(colon + 1));
        if (host === '0.0.0.0') {
            return 'The host 0.0.0.0 is world-open; sandy refuses it. Use the address the LLM server listens on.';
        }
        if (port < 1 || port > 65535) {
            return `Port ${value.slice(colon + 1)} is out of range (1-65535).`;
        }
        return undefined;
    },
    SANDY_ALLOW_LAN_HOSTS: value => {
        const open = findWorldOpenLanEntries(value);
        if (!open.length) {
            return undefined;
        }
        const refused = open.find(o => o.sandyRefuses);
        return refused
            ? `${refused.entry} opens every address; sandy refuses to launch with it. List the hosts or subnets you need.`
            : `${open[0].entry} has a zero-length mask and opens every address. List the hosts or subnets you need.`;
    }
};

/**
 * Why sandy would not accept `value` for `field`, or undefined. Checks that the value can be written
 * at all (one line, no NUL), then the type: pattern for strings, whole numbers (and min/max) for ints,
 * the choices for enums, the key's own on/off spelling for bools, sandy's agent rules for agent
 * combos, plus the launch checks sandy makes for a few keys.
 */
export function validateFieldValue(field: SettingsField, value: string): string | undefined {
    const formatted = formatValue(value);
    if (!formatted.ok) {
        return `This value ${formatted.reason}.`;
    }
    switch (field.widget) {
        case 'number': {
            if (!/^-?[0-9]+$/.test(value)) {
                return 'Enter a whole number (digits only).';
            }
            const n = Number(value);
            if (field.min !== undefined && n < field.min) {
                return `The smallest allowed value is ${field.min}.`;
            }
            if (field.max !== undefined && n > field.max) {
                return `The largest allowed value is ${field.max}.`;
            }
            break;
        }
        case 'select':
            if (!field.choices!.includes(value)) {
                return `"${value}" is not one of ${field.choices!.join(', ')}.`;
            }
            break;
        case 'toggle':
            if (value !== field.boolValues!.on && value !== field.boolValues!.off) {
                return `sandy only understands ${field.boolValues!.on} (on) or ${field.boolValues!.off} (off) for this setting.`;
            }
            break;
        case 'agents': {
            const problem = validateAgentCombo(value, field.agents ?? SANDY_AGENT_NAMES);
            if (problem) {
                return problem;
            }
            break;
        }
    }
    if (field.jsPattern !== undefined) {
        let matches = true;
        try {
            matches = new RegExp(field.jsPattern).test(value);
        } catch {
            // Compiled once already in posixPatternToJs; never trust that enough to crash a form.
        }
        if (!matches) {
            return `The value does not match the pattern ${field.pattern}.`;
        }
    }
    const launchCheck = Object.prototype.hasOwnProperty.call(LAUNCH_CHECKS, field.key) ? LAUNCH_CHECKS[field.key] : undefined;
    return launchCheck?.(value);
}
