/**
 * What a save says afterwards: the sentence for a tightened file mode, `sandy --validate-config`'s
 * verdict as display lines, and the lines a host writes to its "Sandy Settings" log.
 */
import type { SettingsModeFix, SettingsSaveResult, SettingsScope } from './settings-dto';

/** The sentence the settings editor (and the log) shows for a {@link SettingsModeFix}. */
export function describeModeFix(fix: SettingsModeFix): string {
    const octal = (mode: number) => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;
    const others = fix.from & 0o077 ? ' (other users could read it)' : '';
    return `${fix.path} had mode ${octal(fix.from)}${others}; it is now ${octal(fix.to)}, readable and writable by you only.`;
}

/** `--validate-config` output, reduced to what the verdict needs. */
export interface ValidateVerdictInput {
    readonly path?: string;
    readonly errors?: readonly string[];
    readonly warnings?: readonly { readonly key: string; readonly message: string }[];
    readonly unknown_keys?: readonly string[];
    readonly privileged_keys_requiring_approval?: readonly string[];
    readonly approval_status?: string;
}

/**
 * `sandy --validate-config` on a saved file, as lines for the status area. Worded so nobody reads
 * "no problems" as "values checked": sandy checks none (CONTRACT §0.2); the form did that before saving.
 */
export function describeValidateResult(result: ValidateVerdictInput): string[] {
    const lines: string[] = [];
    const name = result.path ? result.path.split(/[\\/]/).pop() : 'the file';
    for (const error of result.errors ?? []) {
        lines.push(`Error: ${error}`);
    }
    const approval = result.privileged_keys_requiring_approval ?? [];
    if (result.approval_status === 'pending' && approval.length) {
        lines.push(`Needs your approval at the next launch: ${approval.join(', ')}.`);
    } else if (result.approval_status === 'approved' && approval.length) {
        lines.push(`Already approved: ${approval.join(', ')}.`);
    }
    for (const warning of result.warnings ?? []) {
        // The approval warning repeats the line above.
        if (!approval.includes(warning.key)) {
            lines.push(`${warning.key}: ${warning.message}`);
        }
    }
    if (result.unknown_keys?.length) {
        lines.push(`sandy does not know (and ignores): ${result.unknown_keys.join(', ')}.`);
    }
    if (!lines.length) {
        lines.push(`sandy --validate-config found nothing to report in ${name}.`);
    }
    return lines;
}

/** What a host writes to its "Sandy Settings" log after a save: mismatches, the failure, sandy's verdict. */
export function settingsSaveLogLines(scope: SettingsScope, result: SettingsSaveResult, at = new Date()): string[] {
    const stamp = at.toISOString();
    const lines: string[] = [];
    if (result.mismatches?.length) {
        lines.push(`${stamp} ${scope}: these keys did not read back as written: ${result.mismatches.join(', ')}`);
    }
    if (result.error) {
        lines.push(`${stamp} ${scope}: save failed: ${result.error.message} ${result.error.hint ?? ''}`);
    }
    for (const fix of result.modeFixes ?? []) {
        lines.push(`${stamp} ${scope}: ${describeModeFix(fix)}`);
    }
    for (const line of result.validateVerdict ?? []) {
        lines.push(`${stamp} ${scope}: ${line}`);
    }
    return lines;
}
