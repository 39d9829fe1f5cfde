/**
 * sandy-ui's memory of approved privileged VALUES, per workspace.
 *
 * sandy's approval file stores key names and one hash over the whole set (CONTRACT §4.1), so after an
 * edit it cannot say which value changed (fx 13a). We remember a hash per key at approval time and
 * compare later (common/approval-diff.ts). The record lives in sandy-ui's own storage folder, never
 * in the workspace: a workspace is written by the agent, and a record there could be forged to make a
 * changed value look unchanged. Only hashes are stored, never values, and the file is 0600.
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { PreflightReport } from '../../common/config/preflight';
import { withFileLock, writeFileAtomic } from '../config/config-io';
import { valueHashesFor } from './preflight';

/** `{ [workspaceHash16]: { [key]: valueHash } }` */
export type ApprovalMemoryData = Record<string, Record<string, string>>;

/** File name inside the storage folder. */
export const APPROVAL_MEMORY_FILE = 'approved-value-hashes.json';
/** The `.sandy/Dockerfile` text last approved per workspace, for "what changed" (sandy keeps a hash only). */
export const APPROVED_DOCKERFILES_FILE = 'approved-dockerfiles.json';
/** A Dockerfile larger than this is not remembered (the view then says "changed" without a diff). */
const MAX_REMEMBERED_DOCKERFILE = 256 * 1024;

export class ApprovalMemory {
    readonly file: string;
    readonly dockerfilesFile: string;

    constructor(storageDir: string) {
        this.file = path.join(storageDir, APPROVAL_MEMORY_FILE);
        this.dockerfilesFile = path.join(storageDir, APPROVED_DOCKERFILES_FILE);
    }

    /** The Dockerfile text approved last time for a workspace, if remembered. */
    async getDockerfile(workspaceHash: string): Promise<string | undefined> {
        const data = await readJsonRecord(this.dockerfilesFile);
        const text = Object.prototype.hasOwnProperty.call(data, workspaceHash) ? data[workspaceHash] : undefined;
        return typeof text === 'string' ? text : undefined;
    }

    /** Remembers the Dockerfile text sandy was just told to approve. */
    recordDockerfile(workspaceHash: string, text: string): Promise<void> {
        return this.updateFile(this.dockerfilesFile, workspaceHash, data => {
            if (text.length <= MAX_REMEMBERED_DOCKERFILE) {
                data[workspaceHash] = text;
            } else {
                delete data[workspaceHash];
            }
        });
    }

    /** Everything recorded; an unreadable or corrupt file reads as empty (the memory is only a hint). */
    async load(): Promise<ApprovalMemoryData> {
        const parsed = await readJsonRecord(this.file);
        return isMemoryData(parsed) ? parsed : {};
    }

    /** The value hashes recorded for a workspace (`workspaceHash16` of its canonical path). */
    async get(workspaceHash: string): Promise<Record<string, string> | undefined> {
        return (await this.load())[workspaceHash];
    }

    /** Replaces the record of a workspace. */
    record(workspaceHash: string, valueHashes: Readonly<Record<string, string>>): Promise<void> {
        return this.update(workspaceHash, data => {
            data[workspaceHash] = { ...valueHashes };
        });
    }

    /** Drops the records of a workspace (approval revoked, sandbox removed). */
    async forget(workspaceHash: string): Promise<void> {
        await this.update(workspaceHash, data => {
            delete data[workspaceHash];
        });
        await this.updateFile(this.dockerfilesFile, workspaceHash, data => {
            delete data[workspaceHash];
        });
    }

    /**
     * Records the current pending values when the launcher would accept them as approved, so the
     * next diff has something to compare against. Returns whether a record was written.
     */
    async rememberIfApproved(workspaceHash: string, report: Pick<PreflightReport, 'approvalStatus' | 'pendingPrivileged'>): Promise<boolean> {
        if (report.approvalStatus !== 'approved') {
            return false;
        }
        await this.record(workspaceHash, valueHashesFor(report.pendingPrivileged));
        return true;
    }

    protected update(workspaceHash: string, change: (data: ApprovalMemoryData) => void): Promise<void> {
        return this.updateFile<ApprovalMemoryData>(this.file, workspaceHash, change, () => this.load());
    }

    protected updateFile<T extends Record<string, unknown>>(
        file: string, workspaceHash: string, change: (data: T) => void, load: () => Promise<T> = () => readJsonRecord(file) as Promise<T>
    ): Promise<void> {
        if (!/^[0-9a-f]{16,64}$/.test(workspaceHash)) {
            // Also keeps names like "__proto__" out of the record object.
            return Promise.reject(new Error(`Not a workspace hash: "${workspaceHash}".`));
        }
        return withFileLock(file, async () => {
            const data = await load();
            change(data);
            await writeFileAtomic(file, JSON.stringify(data, undefined, 2) + '\n', { mode: 0o600, dirMode: 0o700 });
        });
    }
}

async function readJsonRecord(file: string): Promise<Record<string, unknown>> {
    try {
        const parsed: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
        return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {};
    } catch {
        return {};
    }
}

function isMemoryData(value: unknown): value is ApprovalMemoryData {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return false;
    }
    return Object.values(value).every(entry => !!entry && typeof entry === 'object' && !Array.isArray(entry)
        && Object.values(entry).every(h => typeof h === 'string'));
}
