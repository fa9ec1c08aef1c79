/** GitHub's heading slug (github-slugger's rules) of a Markdown heading's text. */
export declare const slug: (text: string) => string
/** Every anchor a Markdown file defines: heading slugs (repeats with -1, -2) and `<a name|id>`. */
export declare const anchorsOf: (file: string) => ReadonlySet<string>
/** One line per broken relative link or anchor of a Markdown file: `file:line: target: reason`. */
export declare const checkFile: (file: string) => Array<string>
/** The Markdown files the check covers: README.md, docs/**, packages/*\/README.md, examples/**\/README.md. */
export declare const projectFiles: () => Array<string>
