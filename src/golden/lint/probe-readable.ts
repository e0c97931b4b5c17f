import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { finding, type Finding } from './finding.ts'

/**
 * A cross-tenant probe (probeDocIds) whose asker may read one of its documents by the project's access rule (error):
 * its answer is then the asker's own, and the probe tests no permission.
 */
export function probeReadable(
  questions: readonly GoldenQuestion[],
  mayRead: (userContext: Record<string, unknown>, docId: string) => boolean,
): Finding[] {
  return questions.flatMap((q) =>
    (q.probeDocIds ?? [])
      .filter((docId) => q.userContext !== undefined && mayRead(q.userContext, docId))
      .map((docId) =>
        finding(
          'probe-readable',
          q.id,
          `${docId} is readable by its asker ${JSON.stringify(q.userContext)} (the access rule), so the probe tests no permission`,
          "ask as a tenant the access rule keeps from the document (front matter access:, the config's access)",
        ),
      ),
  )
}
