/**
 * The ports a host implements so core's controllers can run in it: the Theia frontend with its
 * MessageService, QuickInputService, dialogs and clipboard; the VS Code plugin with `vscode.window`.
 * A port only shows or asks; every decision and every word is the controller's (labels.ts).
 */

/** One row of a quick pick. */
export interface PickItem<T> {
    label: string;
    description?: string;
    detail?: string;
    value: T;
}

export interface HostUi {
    /**
     * A notification with optional action buttons; resolves with the action clicked, undefined when
     * dismissed. The host shows `message` as plain text (core's plainMessageText), never as markup.
     */
    info(message: string, ...actions: string[]): Promise<string | undefined>;
    warn(message: string, ...actions: string[]): Promise<string | undefined>;
    error(message: string, ...actions: string[]): Promise<string | undefined>;
    /**
     * A modal confirmation of a destructive action: true only when the user chose `ok`. `detail`: a
     * longer plain text below the message whose lines are kept (core's plainDetailText).
     */
    confirm(options: { title: string; message: string; detail?: string; ok: string }): Promise<boolean>;
    /** A quick pick; undefined when cancelled. */
    pick<T>(items: PickItem<T>[], placeholder: string): Promise<T | undefined>;
    /** A quick pick of several (check boxes), `picked` rows ticked at first; undefined when cancelled, [] when all were unticked. */
    pickMany<T>(items: Array<PickItem<T> & { picked?: boolean }>, placeholder: string): Promise<T[] | undefined>;
    writeClipboard(text: string): Promise<void>;
    /** A folder picker (starting at the window's first folder); undefined when cancelled. */
    pickFolder(options: { title: string; openLabel: string }): Promise<string | undefined>;
    openFolderInNewWindow(folder: string): Promise<void>;
    /** A line of text from the user (`validate`: why the value cannot be taken, or undefined); undefined when cancelled. */
    input(options: { title: string; placeholder: string; validate?: (value: string) => string | undefined }): Promise<string | undefined>;
    /** Runs `task` while a progress notification says `title` (no cancel: sandy's commands run to their end). */
    withProgress<T>(title: string, task: () => Promise<T>): Promise<T>;
}
