/** esbuild bundles the CSS a webview entry imports into a sibling .css file. */
declare module '*.css';
