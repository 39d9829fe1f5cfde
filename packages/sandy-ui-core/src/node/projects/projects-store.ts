import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../config/config-io';

/** A workspace the user added in the UI, even if sandy has no sandbox for it yet. */
export interface StoredProject {
    workspace: string;
    addedAt: number;
    /** Last launch from this UI, with what we knew then (sandy's print-state has no agent/model). */
    lastLaunchedAt?: number;
    lastAgent?: string;
    lastModel?: string;
}

interface StoreFile {
    version: 1;
    projects: StoredProject[];
}

/**
 * The UI-side projects list (spec, MVP pillar 1: `projects.json` in the extension's global storage).
 * Reads tolerate a missing or corrupt file (a corrupt one is kept aside as `.corrupt-<time>`, never
 * silently overwritten); writes are atomic.
 */
export class ProjectsStore {
    protected cache: StoredProject[] | undefined;
    protected queue: Promise<unknown> = Promise.resolve();

    constructor(readonly file: string) { }

    async list(): Promise<StoredProject[]> {
        if (!this.cache) {
            this.cache = await this.read();
        }
        return this.cache.map(p => ({ ...p }));
    }

    add(workspace: string): Promise<StoredProject> {
        return this.mutate(projects => {
            const existing = projects.find(p => p.workspace === workspace);
            if (existing) {
                return existing;
            }
            const project: StoredProject = { workspace, addedAt: Date.now() };
            projects.push(project);
            return project;
        });
    }

    remove(workspace: string): Promise<boolean> {
        return this.mutate(projects => {
            const idx = projects.findIndex(p => p.workspace === workspace);
            if (idx >= 0) {
                projects.splice(idx, 1);
                return true;
            }
            return false;
        });
    }

    recordLaunch(workspace: string, details: { agent?: string; model?: string }): Promise<StoredProject> {
        return this.mutate(projects => {
            let project = projects.find(p => p.workspace === workspace);
            if (!project) {
                project = { workspace, addedAt: Date.now() };
                projects.push(project);
            }
            project.lastLaunchedAt = Date.now();
            if (details.agent) {
                project.lastAgent = details.agent;
            }
            if (details.model) {
                project.lastModel = details.model;
            }
            return { ...project };
        });
    }

    protected mutate<T>(change: (projects: StoredProject[]) => T): Promise<T> {
        const run = this.queue.then(async () => {
            const projects = await this.list();
            const result = change(projects);
            await this.write(projects);
            this.cache = projects;
            return result;
        });
        this.queue = run.catch(() => undefined);
        return run;
    }

    protected async read(): Promise<StoredProject[]> {
        let text: string;
        try {
            text = await fs.promises.readFile(this.file, 'utf8');
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
                return [];
            }
            throw e;
        }
        try {
            const parsed = JSON.parse(text) as Partial<StoreFile>;
            if (!Array.isArray(parsed.projects)) {
                throw new Error('no projects array');
            }
            return parsed.projects.filter(p => p && typeof p.workspace === 'string' && p.workspace.length > 0)
                .map(p => ({ ...p, addedAt: typeof p.addedAt === 'number' ? p.addedAt : 0 }));
        } catch {
            // Keep the user's file for inspection rather than overwriting it on the next save.
            await fs.promises.rename(this.file, `${this.file}.corrupt-${Date.now()}`).catch(() => undefined);
            return [];
        }
    }

    protected async write(projects: StoredProject[]): Promise<void> {
        await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
        const data: StoreFile = { version: 1, projects };
        await writeFileAtomic(this.file, JSON.stringify(data, undefined, 2) + '\n', { mode: 0o600 });
    }
}
