/**
 * One scope's edit state: pending edits over the scope's files, what each field shows, and the exact
 * `{key, value}` edits for `config` and `.secrets` a save sends.
 */
import { ConfigEdit, LOADER_KEY_PATTERN } from '../config/config-file';
import { isWeakeningValue } from '../config/preflight';
import type { SettingsEdits, SettingsMisplacedKey, SettingsScope } from './settings-dto';
import type { SettingsField } from './settings-fields';
import { normalizeScopeData, SettingsForm } from './scope-form';
import { validateFieldValue } from './settings-validation';

/** A pending change of one key: a new value, or removal from this scope's files. */
export type PendingEdit =
    | { readonly kind: 'set'; readonly value: string }
    | { readonly kind: 'clear' };

/** What the form shows for one field in one scope. */
export interface SettingsFieldStatus {
    /** The value shown: the pending one, else the file's; undefined = not set here. Never a secret's. */
    readonly value: string | undefined;
    /** Set in this scope's files now (before pending edits). */
    readonly inFile: boolean;
    /** Secrets: set after the pending edit is saved. */
    readonly secretSet: boolean;
    readonly pending: PendingEdit | undefined;
    readonly dirty: boolean;
    /** Why sandy would refuse the shown value (a pending one cannot be saved while this is set). */
    readonly error: string | undefined;
    /** Misplacement, environment override, ignored env-only line. */
    readonly warnings: readonly string[];
    /** Project scope: the value will be approval-gated at the next launch. */
    readonly needsApproval: boolean;
}

/** The outcome of {@link ScopeFormState.toEdits}. */
export interface SettingsEditPlan {
    readonly scope: SettingsScope;
    readonly edits: SettingsEdits;
    /** Keys included in `edits`. */
    readonly keys: readonly string[];
    /** Changed keys held back, each with the reason; the other keys still save. */
    readonly blocked: readonly { readonly key: string; readonly message: string }[];
    /** The exact pending edits the plan was made from, so a save commits only those. */
    readonly basis: ReadonlyMap<string, PendingEdit>;
}

/**
 * One scope's pending edits over the scope's files. Edits are keyed by name, so a new snapshot (after
 * a save, or a change on disk) keeps them; an edit that the files now already match disappears.
 */
export class ScopeFormState {
    protected readonly pendingEdits = new Map<string, PendingEdit>();
    protected currentForm: SettingsForm | undefined;

    constructor(readonly scope: SettingsScope) { }

    /** Undefined until a snapshot with this scope arrived (or while it has none, e.g. no workspace). */
    get form(): SettingsForm | undefined {
        return this.currentForm;
    }

    /** Takes a new form for this scope, dropping edits the files now already match. */
    setForm(form: SettingsForm | undefined): void {
        this.currentForm = form;
        if (!form) {
            return;
        }
        for (const [key, edit] of [...this.pendingEdits]) {
            if (this.isNoop(key, edit)) {
                this.pendingEdits.delete(key);
            }
        }
    }

    protected field(key: string): SettingsField | undefined {
        return this.currentForm?.fields.get(key);
    }

    protected misplacedOf(key: string): SettingsMisplacedKey | undefined {
        return this.currentForm?.data.misplaced.find(m => m.key === key);
    }

    /** The file's value (non-secrets). */
    baselineValue(key: string): string | undefined {
        const values = this.currentForm?.data.values;
        return values && Object.prototype.hasOwnProperty.call(values, key) ? values[key] : undefined;
    }

    /** Set in this scope's files before pending edits. */
    isInFile(key: string): boolean {
        const data = this.currentForm?.data;
        if (!data) {
            return false;
        }
        return this.field(key)?.file === 'secrets'
            ? data.secretsSet[key] === true || data.misplaced.some(m => m.key === key)
            : this.baselineValue(key) !== undefined;
    }

    protected isNoop(key: string, edit: PendingEdit): boolean {
        const field = this.field(key);
        if (edit.kind === 'clear') {
            return !this.isInFile(key) && !this.misplacedOf(key);
        }
        // A secret's value is unknown here, so setting one is never a no-op; nor is a non-secret one that
        // also sits misplaced in `.secrets` (saving moves it).
        return field?.file !== 'secrets' && !this.misplacedOf(key) && this.baselineValue(key) === edit.value;
    }

    /** Sets `key` to `value` in this scope (an empty string is written as `KEY=""`). */
    set(key: string, value: string): void {
        const edit: PendingEdit = { kind: 'set', value };
        if (this.currentForm && this.isNoop(key, edit)) {
            this.pendingEdits.delete(key);
        } else {
            this.pendingEdits.set(key, edit);
        }
    }

    /** Removes `key` from this scope's files on save (for a secret: from `.secrets`, and from `config` if it sits there). */
    clear(key: string): void {
        const edit: PendingEdit = { kind: 'clear' };
        if (this.currentForm && this.isNoop(key, edit)) {
            this.pendingEdits.delete(key);
        } else {
            this.pendingEdits.set(key, edit);
        }
    }

    /** Discards the pending edit of `key`. */
    revert(key: string): void {
        this.pendingEdits.delete(key);
    }

    /** Discards every pending edit of this scope. */
    revertAll(): void {
        this.pendingEdits.clear();
    }

    pending(key: string): PendingEdit | undefined {
        return this.pendingEdits.get(key);
    }

    isDirty(key: string): boolean {
        return this.pendingEdits.has(key);
    }

    get dirty(): boolean {
        return this.pendingEdits.size > 0;
    }

    dirtyKeys(): string[] {
        return [...this.pendingEdits.keys()];
    }

    /** The value the form shows for a non-secret key (pending, else the file's); undefined = not set here. */
    value(key: string): string | undefined {
        const edit = this.pendingEdits.get(key);
        if (edit) {
            return edit.kind === 'set' ? edit.value : undefined;
        }
        return this.field(key)?.file === 'secrets' ? undefined : this.baselineValue(key);
    }

    /** Whether a secret is set after the pending edit. */
    secretSet(key: string): boolean {
        const edit = this.pendingEdits.get(key);
        return edit ? edit.kind === 'set' : this.isInFile(key);
    }

    /** Why sandy would refuse the value shown for `key`; undefined when fine or not set. */
    error(key: string): string | undefined {
        const field = this.field(key);
        const edit = this.pendingEdits.get(key);
        if (!field) {
            return edit ? 'This setting is no longer in sandy\'s schema.' : undefined;
        }
        if (field.readOnly) {
            return edit?.kind === 'set' ? 'This setting cannot be set in a config file.' : undefined;
        }
        const value = field.file === 'secrets' ? (edit?.kind === 'set' ? edit.value : undefined) : this.value(key);
        return value === undefined ? undefined : validateFieldValue(field, value);
    }

    /** Whether the value shown for `key` is approval-gated when saved in this (project) scope. */
    needsApproval(key: string): boolean {
        const field = this.field(key);
        if (this.scope !== 'project' || !field || field.readOnly) {
            return false;
        }
        if (field.tier === 'privileged') {
            return field.file === 'secrets' ? this.secretSet(key) : this.value(key) !== undefined;
        }
        const value = this.value(key);
        return value !== undefined && isWeakeningValue(key, value);
    }

    /** Keys whose values will need approval at the next launch (project scope), in schema order. */
    approvalKeys(): string[] {
        const form = this.currentForm;
        if (!form || this.scope !== 'project') {
            return [];
        }
        return [...form.fields.keys()].filter(key => this.needsApproval(key));
    }

    /** Everything the view needs to render one field. */
    status(key: string): SettingsFieldStatus {
        const field = this.field(key);
        const warnings: string[] = [];
        const misplaced = this.misplacedOf(key);
        if (misplaced) {
            const where = misplaced.line ? ` (line ${misplaced.line})` : '';
            warnings.push(misplaced.file === 'secrets'
                ? `Also set in .secrets${where}, which sandy reads after config and which wins. Saving here moves it to config.`
                : `This secret is in config${where}, where it is easily committed. Saving or clearing it here moves it to .secrets.`);
        }
        if (this.currentForm?.envSet.has(key)) {
            warnings.push('Set in the environment sandy is started from, which wins over every config file.');
        }
        if (field?.tier === 'env-only' && this.isInFile(key)) {
            warnings.push('This line in the config file has no effect. Clear it, or set the variable in the environment instead.');
        }
        return {
            value: field?.file === 'secrets' ? undefined : this.value(key),
            inFile: this.isInFile(key),
            secretSet: this.secretSet(key),
            pending: this.pendingEdits.get(key),
            dirty: this.pendingEdits.has(key),
            error: this.error(key),
            warnings,
            needsApproval: this.needsApproval(key)
        };
    }

    /**
     * The edits a save sends for this scope: only changed keys; secrets to `.secrets`, everything else
     * to `config`; a key also sitting in the other file is removed from there (so what is saved is what
     * sandy reads). Keys with a validation error, or that cannot be written from the form, are left out
     * and listed in `blocked`.
     */
    toEdits(): SettingsEditPlan {
        const config: ConfigEdit[] = [];
        const secrets: ConfigEdit[] = [];
        const keys: string[] = [];
        const blocked: { key: string; message: string }[] = [];
        const basis = new Map<string, PendingEdit>();
        for (const [key, edit] of this.pendingEdits) {
            const field = this.field(key);
            if (!field) {
                blocked.push({ key, message: 'This setting is no longer in sandy\'s schema.' });
                continue;
            }
            if ((field.readOnly && edit.kind === 'set') || !LOADER_KEY_PATTERN.test(key)) {
                blocked.push({ key, message: 'This setting cannot be set in a config file.' });
                continue;
            }
            const value = edit.kind === 'set' ? edit.value : undefined;
            const problem = value === undefined || field.readOnly ? undefined : validateFieldValue(field, value);
            if (problem) {
                blocked.push({ key, message: problem });
                continue;
            }
            const target = field.file === 'secrets' ? secrets : config;
            const other = field.file === 'secrets' ? config : secrets;
            target.push({ key, value });
            if (this.misplacedOf(key)) {
                other.push({ key, value: undefined });
            } else if (field.readOnly && value === undefined) {
                // An env-only line may sit in either file; clearing removes it from both.
                other.push({ key, value: undefined });
            }
            keys.push(key);
            basis.set(key, edit);
        }
        return { scope: this.scope, edits: { config, secrets }, keys, blocked, basis };
    }

    /**
     * After a successful save of `plan`: the saved values become the baseline and their pending edits go,
     * unless the user changed them again while the save was running.
     */
    commit(plan: SettingsEditPlan): void {
        const form = this.currentForm;
        if (!form) {
            return;
        }
        const data = normalizeScopeData(form.data);
        for (const [key, edit] of plan.basis) {
            const field = form.fields.get(key);
            data.misplaced = data.misplaced.filter(m => m.key !== key);
            if (field?.file === 'secrets') {
                data.secretsSet[key] = edit.kind === 'set';
            } else if (edit.kind === 'set') {
                data.values[key] = edit.value;
            } else {
                delete data.values[key];
            }
            if (this.pendingEdits.get(key) === edit) {
                this.pendingEdits.delete(key);
            }
        }
        this.setForm({ ...form, data });
    }

    /** Replaces the pending edits (used by restore); invalid entries are ignored. */
    loadPending(entries: Readonly<Record<string, unknown>>): void {
        this.pendingEdits.clear();
        for (const [key, raw] of Object.entries(entries)) {
            const edit = raw as Partial<{ kind: string; value: unknown }> | null;
            if (edit?.kind === 'set' && typeof edit.value === 'string') {
                this.pendingEdits.set(key, { kind: 'set', value: edit.value });
            } else if (edit?.kind === 'clear') {
                this.pendingEdits.set(key, { kind: 'clear' });
            }
        }
        if (this.currentForm) {
            this.setForm(this.currentForm);
        }
    }

    /** The pending edits as plain data; secret VALUES only when asked for (see {@link SettingsFormState.serialize}). */
    serializePending(includeSecrets: boolean): Record<string, PendingEdit> {
        const out: Record<string, PendingEdit> = {};
        for (const [key, edit] of this.pendingEdits) {
            if (edit.kind === 'set' && !includeSecrets && this.isSecretKey(key)) {
                continue;
            }
            out[key] = edit;
        }
        return out;
    }

    protected isSecretKey(key: string): boolean {
        const field = this.field(key);
        // Before a schema arrived, the name is all there is: err on the side of not persisting.
        return field ? field.file === 'secrets' : /(_TOKEN|_KEY|_SECRET|_PASSWORD)$/.test(key);
    }
}
