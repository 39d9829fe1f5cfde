/**
 * Reading values off the wire (the schema JSON, the snapshot DTO) without trusting their types.
 * Internal to the settings model: not part of `@sandy-ui/core/common`.
 */

/** A string, or a number / boolean spelled as one; anything else is undefined. */
export function str(value: unknown): string | undefined {
    if (typeof value === 'string') {
        return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
    }
    return undefined;
}

/** A finite number, or a non-blank string that parses as one. */
export function num(value: unknown): number | undefined {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    return Number.isFinite(n) ? n : undefined;
}

/** An array of strings, as is. */
export function stringList(value: unknown): string[] | undefined {
    return Array.isArray(value) && value.every(v => typeof v === 'string') ? value as string[] : undefined;
}
