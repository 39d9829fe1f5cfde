/**
 * The typed message layer between the extension host and its webviews (the role vscode-messenger
 * plays elsewhere): every feature's protocol file declares both directions as discriminated unions
 * and one validator for what the webview sends. A webview is a web page: whatever it posts is
 * untrusted input, so the host validates every message (shape, types, sizes) before acting on it.
 * Pure: compiled for the extension host and imported by the webview bundles.
 */

/** Why a message was refused (logged by the host, never shown to the webview). */
export class MessageError extends Error {
    constructor(readonly path: string, problem: string) {
        super(`${path}: ${problem}`);
        this.name = 'MessageError';
    }
}

/** Checks one value and returns it typed, or throws a {@link MessageError}. */
export type Check<T> = (value: unknown, path: string) => T;

export const MAX_ID_CHARS = 256;

export function str(maxChars: number, pattern?: RegExp): Check<string> {
    return (value, path) => {
        if (typeof value !== 'string') {
            throw new MessageError(path, `expected a string, got ${typeof value}`);
        }
        if (value.length > maxChars) {
            throw new MessageError(path, `longer than ${maxChars} characters (${value.length})`);
        }
        if (pattern && !pattern.test(value)) {
            throw new MessageError(path, 'has an unexpected format');
        }
        return value;
    };
}

export function int(min: number, max: number): Check<number> {
    return (value, path) => {
        if (typeof value !== 'number' || !Number.isInteger(value)) {
            throw new MessageError(path, 'expected an integer');
        }
        if (value < min || value > max) {
            throw new MessageError(path, `out of range [${min}, ${max}]`);
        }
        return value;
    };
}

export const bool: Check<boolean> = (value, path) => {
    if (typeof value !== 'boolean') {
        throw new MessageError(path, 'expected a boolean');
    }
    return value;
};

export function oneOf<T extends string>(...values: readonly T[]): Check<T> {
    return (value, path) => {
        if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
            throw new MessageError(path, `expected one of ${values.join(', ')}`);
        }
        return value as T;
    };
}

/** Absent (or null / undefined after JSON) → undefined. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
    return (value, path) => value === undefined || value === null ? undefined : check(value, path);
}

export function arrayOf<T>(check: Check<T>, maxItems: number): Check<T[]> {
    return (value, path) => {
        if (!Array.isArray(value)) {
            throw new MessageError(path, 'expected an array');
        }
        if (value.length > maxItems) {
            throw new MessageError(path, `more than ${maxItems} items`);
        }
        return value.map((item, i) => check(item, `${path}[${i}]`));
    };
}

type Shape = Record<string, Check<unknown>>;
type FromShape<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object with exactly these fields: unknown fields are refused, not ignored. */
export function object<S extends Shape>(shape: S): Check<FromShape<S>> {
    return (value, path) => {
        if (!isPlainObject(value)) {
            throw new MessageError(path, 'expected an object');
        }
        for (const key of Object.keys(value)) {
            if (!(key in shape)) {
                throw new MessageError(`${path}.${key}`, 'unexpected field');
            }
        }
        const out: Record<string, unknown> = {};
        for (const [key, check] of Object.entries(shape)) {
            const checked = check(value[key], `${path}.${key}`);
            if (checked !== undefined) {
                out[key] = checked;
            }
        }
        return out as FromShape<S>;
    };
}

/** A union keyed by `type`: each variant's fields besides `type`. */
export function messageOf<M extends { type: string }>(variants: { [K in M['type']]: Shape }): Check<M> {
    return (value, path) => {
        if (!isPlainObject(value) || typeof value.type !== 'string') {
            throw new MessageError(path, 'expected a message with a string "type"');
        }
        const type = value.type;
        if (!Object.prototype.hasOwnProperty.call(variants, type)) {
            throw new MessageError(`${path}.type`, `unknown message type ${JSON.stringify(type.slice(0, 40))}`);
        }
        const shape = (variants as Record<string, Shape>)[type];
        const { type: _type, ...rest } = value;
        return { type, ...object(shape)(rest, path) } as unknown as M;
    };
}

/** Validate, or return the refusal: the host logs it and drops the message. */
export function validate<M>(check: Check<M>, raw: unknown): { ok: true; message: M } | { ok: false; error: string } {
    try {
        return { ok: true, message: check(raw, 'message') };
    } catch (e) {
        return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
}

/** Request ids the webview allocates for calls that expect an answer. */
export const requestId = int(0, Number.MAX_SAFE_INTEGER);
