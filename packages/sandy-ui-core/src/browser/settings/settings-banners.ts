/**
 * The banners of the settings view: where the schema came from (above the tabs), and what the active
 * scope's files need the user to know (approval, a `.secrets` git would commit, unreadable files,
 * unknown keys) at the top of the panel.
 */
import type { SettingsProblem, SettingsSnapshot } from '../../common/settings/settings-dto';
import type { ScopeFormState } from '../../common/settings/scope-form-state';
import type { DomFactory } from '../dom';
import { banner, BannerSeverity, errorText, problemBanner, problemLines, safe, settingsButton } from './settings-parts';

/** Where the schema came from, and problems with the schema as a whole. */
export function sourceBanners(h: DomFactory, snapshot: SettingsSnapshot, schemaProblems: readonly SettingsProblem[]): HTMLElement[] {
    const banners: HTMLElement[] = [];
    const version = safe(() => snapshot.schema.sandy.version, '');
    const bundled = `the schema bundled with sandy-ui${version ? ` (sandy ${version})` : ''}`;
    if (snapshot.schemaSource === 'missing') {
        banners.push(banner(h, 'warning', [
            `sandy was not found, so these settings come from ${bundled}; your sandy may differ.`,
            ...problemLines(snapshot.sandyProblem)
        ]));
    } else if (snapshot.schemaSource === 'fallback') {
        banners.push(banner(h, 'warning', [
            `sandy's own schema could not be used, so these settings come from ${bundled}.`,
            ...problemLines(snapshot.sandyProblem)
        ]));
    } else if (snapshot.sandyProblem) {
        banners.push(problemBanner(h, snapshot.sandyProblem, 'warning'));
    }
    for (const problem of schemaProblems) {
        banners.push(problemBanner(h, problem, 'warning'));
    }
    return banners;
}

/** What the scope banners' one action needs from the view. */
export interface ScopeBannerActions {
    /** The host adds `.sandy/.secrets` to the workspace `.gitignore`. */
    addToGitignore(): Promise<void>;
    setStatus(severity: BannerSeverity, lines: readonly string[]): void;
}

/** The banners of the active scope (empty until it has a form). */
export function scopeBanners(h: DomFactory, snapshot: SettingsSnapshot, scopeState: ScopeFormState, actions: ScopeBannerActions): HTMLElement[] {
    const form = scopeState.form;
    if (!form) {
        return [];
    }
    const banners: HTMLElement[] = [];
    if (scopeState.scope === 'project') {
        const keys = scopeState.approvalKeys();
        banners.push(banner(h, 'info', [
            'Privileged settings saved here (and values that weaken isolation) are not applied until you approve them when sandy next launches in this workspace.',
            ...(keys.length ? [`Needing approval: ${keys.join(', ')}.`] : [])
        ], 'sandy-settings-banner-approval'));
        const warning = snapshot.gitignoreWarning;
        const projectHasSecrets = form.fields.size > 0 && [...form.fields.values()]
            .some(f => f.file === 'secrets' && scopeState.secretSet(f.key));
        if (warning && (warning.exists || projectHasSecrets)) {
            const lines = warning.tracked
                ? [`${warning.path} is tracked by git, so the secrets in it are committed.`,
                    'Stop tracking it (git rm --cached .sandy/.secrets) and add it to .gitignore.']
                : [`${warning.path} is not ignored by git, so a commit could include your API keys and tokens.`];
            const gitignore = banner(h, 'warning', lines, 'sandy-settings-banner-gitignore');
            const action = settingsButton(h, 'Add to .gitignore', 'sandy-settings-gitignore', async () => {
                action.disabled = true;
                try {
                    await actions.addToGitignore();
                    actions.setStatus('info', ['Added .sandy/.secrets to .gitignore.']);
                } catch (e) {
                    action.disabled = false;
                    actions.setStatus('error', [`Could not update .gitignore: ${errorText(e)}`, 'Add the line .sandy/.secrets to .gitignore yourself.']);
                }
            });
            gitignore.append(action);
            banners.push(gitignore);
        }
    }
    for (const problem of form.data.problems ?? []) {
        banners.push(problemBanner(h, problem, 'error'));
    }
    const stray = form.unknownKeys.filter(u => !u.forwarded).map(u => u.key);
    const forwarded = form.unknownKeys.filter(u => u.forwarded).map(u => u.key);
    if (stray.length) {
        banners.push(banner(h, 'warning', [
            `Not known to this sandy, so ignored: ${stray.join(', ')}.`,
            'They may be typos or belong to a newer sandy. Use "Open config" or "Open .secrets" to fix them.'
        ], 'sandy-settings-banner-unknown'));
    }
    if (forwarded.length) {
        banners.push(banner(h, 'info', [`Forwarded into the container by SANDY_EXTRA_ENV: ${forwarded.join(', ')}.`], 'sandy-settings-banner-forwarded'));
    }
    return banners;
}
