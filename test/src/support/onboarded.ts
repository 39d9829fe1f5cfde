import * as fs from 'fs';
import * as path from 'path';

/**
 * A scratch HOME that has been through Sandy: Get Started (`~/.sandy-ui/onboarding.json` says finished),
 * so the wizard does not open by itself in front of what a suite drives (it still opens when sandy is missing).
 */
export function markOnboarded(home: string): void {
    fs.mkdirSync(path.join(home, '.sandy-ui'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(home, '.sandy-ui', 'onboarding.json'), JSON.stringify({ version: 1, steps: {}, finishedAt: Date.now() }) + '\n', { mode: 0o600 });
}
