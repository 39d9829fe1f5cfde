/**
 * A process's parent and process group from /proc/<pid>/stat (Linux), for every test tree that
 * checks how the processes it started are related (who forked whom, which group a signal reaches).
 */
import * as fs from 'fs';

/** The fields of /proc/<pid>/stat after the command name (state, ppid, pgrp, …), undefined when there is no such process. */
function statFields(pid: number): string[] | undefined {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    } catch {
        return undefined;
    }
}

/** A process's parent pid (/proc/<pid>/stat field 4), undefined when there is no such process. */
export function parentOf(pid: number): number | undefined {
    const ppid = statFields(pid)?.[1];
    return ppid === undefined ? undefined : Number(ppid);
}

/** A process's process group (/proc/<pid>/stat field 5), undefined when there is no such process. */
export function processGroupOf(pid: number): number | undefined {
    const pgrp = statFields(pid)?.[2];
    return pgrp === undefined ? undefined : Number(pgrp);
}
