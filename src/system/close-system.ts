import type { RagSystem } from './rag-system.ts'

/**
 * Closes the system once the run is over. A close() that fails does not undo what was measured before
 * it: the failure comes back as a warning for the report (null when it closed), never as the run's error.
 */
export async function closeSystem(system: RagSystem): Promise<string | null> {
  try {
    await system.close?.()
    return null
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return `the system ${system.name} failed to close (${reason}); its answers were all measured before, and stand`
  }
}
