import * as path from 'path';

/**
 * `child` lies strictly below `parent` (both absolute, with the platform's separators). Lexical: the
 * caller canonicalises first where links matter. A name such as `..x` is inside, not a way out.
 */
export function isStrictlyInside(child: string, parent: string): boolean {
    const rel = path.relative(parent, child);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
