import type { RagSystem } from './rag-system.ts'

/** A failed close() does not undo what was measured: it is a warning for the report (null when closed), not an error. */
export async function closeSystem(system: RagSystem): Promise<string | null> {
  try {
    await system.close?.()
    return null
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return `the system ${system.name} failed to close (${reason}); its answers were all measured before, and stand`
  }
}
