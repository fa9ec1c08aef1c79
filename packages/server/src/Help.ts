/**
 * `ridequote … --help`: plain text, wrapped at the terminal's width, printed by the program
 * itself rather than by @effect/cli. The reasons:
 *
 * - `--help` anywhere on the line shows the help of the command it follows, whatever other
 *   options come before it (`ridequote serve --markets m --help`); @effect/cli only honours it
 *   right after the command name.
 * - Lines wrap at `process.stdout.columns` (80 when stdout is not a terminal, or `COLUMNS`),
 *   and no colour codes end up in a pipe or a file.
 * - @effect/cli's boilerplate ("This setting is optional.", "This option can be set from
 *   environment variables.") is replaced by what an operator needs: the environment variable
 *   (each description in Settings.ts names it), the default, the accepted values.
 *
 * The content still comes from the command descriptors (@effect/cli's public `HelpDoc` and
 * `Usage`), so a new option or command appears here without touching this file.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import * as Usage from "@effect/cli/Usage"

/** Width help is wrapped at: the terminal's, else `COLUMNS`, else 80; never below 40. */
const helpWidth = (stream: { readonly isTTY?: boolean; readonly columns?: number } = process.stdout): number => {
  const fromTerminal = stream.isTTY === true ? stream.columns : undefined
  const fromEnv = Number.parseInt(process.env["COLUMNS"] ?? "", 10)
  const width = fromTerminal ?? (Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 80)
  return Math.max(40, width)
}

/** Descriptors without the built-in options (--completions, --wizard, …): listed once, below. */
const helpConfig = CliConfig.make({ showBuiltIns: false })

const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    case "Highlight":
    case "Strong":
    case "Weak":
      return spanText(span.value)
  }
}

type Block =
  | { readonly _tag: "Header"; readonly text: string }
  | { readonly _tag: "Paragraph"; readonly text: string }
  | { readonly _tag: "List"; readonly items: ReadonlyArray<readonly [string, ReadonlyArray<string>]> }

/** A HelpDoc as a flat list of blocks (sequences flattened, lists' bodies as paragraphs). */
const blocksOf = (doc: HelpDoc.HelpDoc): Array<Block> => {
  switch (doc._tag) {
    case "Empty":
      return []
    case "Header":
      return [{ _tag: "Header", text: spanText(doc.value) }]
    case "Paragraph":
      return [{ _tag: "Paragraph", text: spanText(doc.value) }]
    case "Sequence":
      return [...blocksOf(doc.left), ...blocksOf(doc.right)]
    case "Enumeration":
      return doc.elements.flatMap(blocksOf)
    case "DescriptionList":
      return [{
        _tag: "List",
        items: doc.definitions.map(([span, body]) => [
          spanText(span),
          blocksOf(body).flatMap((b) => (b._tag === "Paragraph" ? [b.text] : []))
        ] as const)
      }]
  }
}

/** @effect/cli's generic sentences, dropped or rewritten (the descriptions say it better). */
const DROPPED = new Set([
  "A user-defined piece of text.",
  "An integer.",
  "A floating point number.",
  "A true or false value.",
  "A date without a time-zone in the ISO-8601 format, such as 2007-12-03T10:15:30.",
  "A file without any specific name",
  "This setting is optional.",
  "This option can be set from environment variables."
])

const rewrite = (paragraph: string): string | undefined => {
  const text = paragraph.trim()
  if (text === "" || DROPPED.has(text)) return undefined
  const choices = /^One of the following: (.*)$/.exec(text)
  if (choices) return `Values: ${choices[1]}.`
  const fallback = /^This setting is optional\. Defaults to: (.*)$/.exec(text)
  if (fallback) return `Default: ${fallback[1]}.`
  return text
}

/** Words of `text` in lines of at most `width` columns, each prefixed by `indent`. */
export const wrap = (text: string, width: number, indent = "", hanging = indent): Array<string> => {
  const lines: Array<string> = []
  let line = ""
  const prefix = () => (lines.length === 0 ? indent : hanging)
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line === "") line = word
    else if (prefix().length + line.length + 1 + word.length <= width) line += ` ${word}`
    else {
      lines.push(prefix() + line)
      line = word
    }
  }
  if (line !== "") lines.push(prefix() + line)
  return lines
}

/**
 * The shape of @effect/cli 0.77's command descriptors, read to walk the tree of commands:
 * `CommandDescriptor.getSubcommands` flattens it (a group's children come back without their
 * own children). help.test.ts renders the help of every command, so a change of shape fails there.
 */
type DescriptorNode =
  | { readonly _tag: "Standard" | "GetUserInput"; readonly name: string }
  | { readonly _tag: "Map"; readonly command: DescriptorNode }
  | { readonly _tag: "Subcommands"; readonly parent: DescriptorNode; readonly children: ReadonlyArray<DescriptorNode> }

const nodeOf = (command: Descriptor.Command<unknown>): DescriptorNode => command as unknown as DescriptorNode
const descriptorOf = (node: DescriptorNode): Descriptor.Command<unknown> => node as unknown as Descriptor.Command<unknown>

const nameOf = (node: DescriptorNode): string =>
  node._tag === "Map" ? nameOf(node.command) : node._tag === "Subcommands" ? nameOf(node.parent) : node.name

/** A command's subcommands in the order they were declared (empty for a leaf command). */
const childrenOf = (command: Descriptor.Command<unknown>): ReadonlyArray<readonly [string, Descriptor.Command<unknown>]> => {
  const node = nodeOf(command)
  if (node._tag === "Map") return childrenOf(descriptorOf(node.command))
  if (node._tag !== "Subcommands") return []
  return node.children.map((child) => [nameOf(child), descriptorOf(child)] as const)
}

/** Every command's path below `root` (`[]`, `["serve"]`, `["accounts"]`, `["accounts", "create"]`, …). */
export const commandPaths = (root: Descriptor.Command<unknown>): Array<ReadonlyArray<string>> => [
  [],
  ...childrenOf(root).flatMap(([name, child]) => commandPaths(child).map((path) => [name, ...path]))
]

/** Which command `args` name: the longest chain of subcommand names found in order. */
export const commandPath = (
  root: Descriptor.Command<unknown>,
  args: ReadonlyArray<string>
): { readonly names: ReadonlyArray<string>; readonly command: Descriptor.Command<unknown> } => {
  const names: Array<string> = []
  let command = root
  for (const arg of args) {
    if (arg === "--") break
    const child = childrenOf(command).find(([name]) => name === arg)
    if (child !== undefined) {
      names.push(child[0])
      command = child[1]
    }
  }
  return { names, command }
}

/** A command's description, for the list of commands. */
const summaryOf = (command: Descriptor.Command<unknown>): string => {
  const blocks = blocksOf(Descriptor.getHelp(command, helpConfig))
  const at = blocks.findIndex((b) => b._tag === "Header" && b.text === "DESCRIPTION")
  const first = blocks[at + 1]
  return at >= 0 && first?._tag === "Paragraph" ? first.text : ""
}

const GLOBAL_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  [
    "--log-level LEVEL",
    "Least severe log level written: all, trace, debug, info, warning, error, fatal, none. Before the command (ridequote --log-level debug serve). Environment: RIDEQUOTE_LOG_LEVEL (which also takes warn). Default: info."
  ],
  ["-h, --help", "Show this help (anywhere on the command line)."],
  ["--version", "Print the version."],
  ["--completions sh|bash|fish|zsh", "Print a shell completion script."]
]

/** Help of the command named by `args` (the command line with `--help` in it), as text. */
export const renderHelp = (
  root: Descriptor.Command<unknown>,
  programName: string,
  version: string,
  args: ReadonlyArray<string>,
  width: number = helpWidth()
): string => {
  const { command, names } = commandPath(root, args)
  const out: Array<string> = []
  const blank = () => {
    if (out.length > 0 && out[out.length - 1] !== "") out.push("")
  }
  const prefix = [programName, ...names].join(" ")
  const children = childrenOf(command)
  const usageSpan = Usage.getHelp(Descriptor.getUsage(command))
  const usageBlocks = blocksOf(usageSpan)
  // The descriptor's own usage starts with its own name; the full path replaces it.
  const ownUsage = usageBlocks.map((b) => (b._tag === "Paragraph" ? b.text : "")).join(" ").trim()
  const afterName = ownUsage.split(" ").slice(1).join(" ")
  const usage = children.length > 0 ? `${prefix} <command> [options]` : `${prefix} ${afterName}`.trim()
  out.push(...wrap(`Usage: ${usage}`, width, "", "    "))

  const blocks = blocksOf(Descriptor.getHelp(command, helpConfig))
  let section = ""
  for (const block of blocks) {
    if (block._tag === "Header") {
      section = block.text
      if (section === "ARGUMENTS" || section === "OPTIONS") {
        blank()
        out.push(section === "ARGUMENTS" ? "Arguments:" : "Options:")
      }
      continue
    }
    if (section === "COMMANDS") continue
    if (block._tag === "Paragraph") {
      blank()
      out.push(...wrap(block.text, width))
      continue
    }
    for (const [term, paragraphs] of block.items) {
      const kept = paragraphs.map(rewrite).filter((p): p is string => p !== undefined)
      // The accepted values after the meaning, not before it.
      const body = [...kept.filter((p) => !p.startsWith("Values: ")), ...kept.filter((p) => p.startsWith("Values: "))]
        .join(" ")
      out.push(...wrap(term, width, "  "))
      if (body !== "") out.push(...wrap(body, width, "      "))
    }
  }

  if (children.length > 0) {
    blank()
    out.push("Commands:")
    const nameWidth = Math.max(...children.map(([name]) => name.length))
    for (const [name, child] of children) {
      const indent = " ".repeat(2 + nameWidth + 2)
      const lines = wrap(summaryOf(child), width, `  ${name.padEnd(nameWidth)}  `, indent)
      out.push(...(lines.length > 0 ? lines : [`  ${name}`]))
    }
    blank()
    out.push(...wrap(`Run '${prefix} <command> --help' for the options of a command.`, width))
  }

  blank()
  out.push("Global options:")
  for (const [term, body] of GLOBAL_OPTIONS) {
    out.push(`  ${term}`, ...wrap(body, width, "      "))
  }
  if (names.length === 0) {
    blank()
    out.push(...wrap(`${programName} ${version}. Settings, examples and every command: docs/operations.md.`, width))
  }
  return out.join("\n") + "\n"
}

/** Whether the command line asks for help: `-h`/`--help` before any `--`. */
export const asksForHelp = (args: ReadonlyArray<string>): boolean => {
  for (const arg of args) {
    if (arg === "--") return false
    if (arg === "--help" || arg === "-h") return true
  }
  return false
}

/** Whether `args` name a group of commands and nothing else (`ridequote`, `ridequote accounts`). */
export const namesOnlyAGroup = (root: Descriptor.Command<unknown>, args: ReadonlyArray<string>): boolean => {
  const { command, names } = commandPath(root, args)
  return childrenOf(command).length > 0 && args.length === names.length
}

/** A HelpDoc (e.g. a usage error of @effect/cli) as plain text lines. */
export const helpDocText = (doc: HelpDoc.HelpDoc): string =>
  blocksOf(doc)
    .flatMap((b) => (b._tag === "List" ? b.items.map(([term, body]) => [term, ...body].join(" ")) : [b.text]))
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n")
