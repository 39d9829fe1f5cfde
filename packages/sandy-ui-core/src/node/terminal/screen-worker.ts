import { isMainThread, parentPort, workerData } from 'worker_threads';
import { SCREEN_WORKER_DATA } from './screen-protocol';
import type { ScreenEvent, ScreenPort, ScreenRequest } from './screen-protocol';
import { serveScreens } from './screen-serve';

// The backend's screen worker: screen-thread.ts starts this file (its own bundle entry in each host) in a worker_threads Worker.
if (!isMainThread && parentPort && (workerData as typeof SCREEN_WORKER_DATA | undefined)?.sandyScreens === 1) {
    serveScreens(parentPort as unknown as ScreenPort<ScreenRequest, ScreenEvent>);
}
