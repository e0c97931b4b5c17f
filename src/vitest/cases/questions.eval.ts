// One Vitest case per golden question, grouped by type, from the run shared by the whole Vitest run.
import { defineQuestionCases } from '../eval-cases.ts'

defineQuestionCases()
