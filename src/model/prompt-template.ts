import { z } from 'zod'
import { contentHash } from '../text/content-hash.ts'
import { sha256Of } from '../common/stable-json.ts'

/** A versioned prompt with {{slot}}s; untrusted text enters only through a delimited block (delimit.ts). */
export interface PromptTemplate {
  /** Stable id, e.g. "judge-faithfulness". */
  id: string
  /** Bumped on every edit (the hash catches an edit without a bump too). */
  version: number
  system: string
  user: string
}

/** A template whose output is one forced tool call; the tool's input schema is derived from `schema`. */
export interface ToolTemplate<S extends z.ZodType = z.ZodType> extends PromptTemplate {
  tool: { name: string; description: string; schema: S }
}

/** Bumped when the way material is delimited (delimit.ts) changes: it is part of every prompt. */
export const DELIMITER_FORMAT_VERSION = 1

/** Drops the safe-integer bounds zod writes for every .int() (noise in a prompt, and no constraint a model needs). */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds)
  if (value === null || typeof value !== 'object') return value
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([key, v]) => !((key === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && v === Number.MIN_SAFE_INTEGER)),
  )
  return Object.fromEntries(entries.map(([key, v]) => [key, withoutSafeIntegerBounds(v)]))
}

/** The JSON Schema of a tool's input, derived from its zod schema (the same schema validates the output). */
export function toolInputSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>
  return withoutSafeIntegerBounds(json) as Record<string, unknown>
}

/** Hash of a template: its text, its tool and output schema, and the delimiter format. */
export function templateHash(template: PromptTemplate | ToolTemplate): string {
  const tool =
    'tool' in template
      ? { name: template.tool.name, description: template.tool.description, schema: toolInputSchema(template.tool.schema) }
      : null
  return sha256Of({
    id: template.id,
    version: template.version,
    system: template.system,
    user: template.user,
    tool,
    delimiters: DELIMITER_FORMAT_VERSION,
  })
}

/** Hash of a template's output schema (null for free text). */
export function outputSchemaHash(template: PromptTemplate | ToolTemplate): string | null {
  return 'tool' in template ? sha256Of(toolInputSchema(template.tool.schema)) : null
}

/** Short hash over several templates (the report's judgePromptsHash). */
export function templatesHash(templates: readonly (PromptTemplate | ToolTemplate)[]): string {
  return contentHash(templates.map((t) => `${t.id}@${templateHash(t)}`).sort())
}

/** Fills every {{slot}} of the user template; a missing or unused slot is a programming error. */
export function renderUser(template: PromptTemplate, slots: Record<string, string>): string {
  const used = new Set<string>()
  const text = template.user.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = slots[name]
    if (value === undefined) throw new Error(`${template.id}: no value for {{${name}}}`)
    used.add(name)
    return value
  })
  const unused = Object.keys(slots).filter((name) => !used.has(name))
  if (unused.length > 0) throw new Error(`${template.id}: unused slot(s) ${unused.join(', ')}`)
  return text
}
