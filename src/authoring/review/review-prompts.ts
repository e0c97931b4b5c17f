import { expand, input } from '@inquirer/prompts'
import type { ReviewDraft } from './kept-drafts.ts'
import type { ReviewAction, ReviewPrompts } from './review-session.ts'

/** The terminal's prompts (@inquirer, as golden add): one key per action, the texts editable in place. */
export const terminalPrompts: ReviewPrompts = {
  action(draft: ReviewDraft): Promise<ReviewAction> {
    return expand<ReviewAction>({
      message: `${draft.id}: accept, edit, reject, skip or quit?`,
      default: 'a',
      expanded: true,
      choices: [
        { key: 'a', name: 'accept: append it to the golden set', value: 'accept' },
        { key: 'e', name: 'edit the question and the gold answer', value: 'edit' },
        { key: 'r', name: 'reject: never shown again', value: 'reject' },
        { key: 's', name: 'skip: shown again on the next run', value: 'skip' },
        { key: 'q', name: 'quit: the decisions so far are saved', value: 'quit' },
      ],
    })
  },
  editQuestion(current: string): Promise<string> {
    return input({
      message: 'Edit the question',
      default: current,
      prefill: 'editable',
      validate: (value) => (value.trim() === '' ? 'write the question as a user would ask it' : true),
    }).then((value) => value.trim())
  },
  editGoldAnswer(current: string): Promise<string> {
    return input({
      message: 'Edit the gold answer',
      default: current,
      prefill: 'editable',
      validate: (value) => (value.trim() === '' ? 'write the gold answer: one or two sentences from the gold documents' : true),
    }).then((value) => value.trim())
  },
  rejectReason(): Promise<string> {
    return input({ message: 'Why rejected (optional, kept in the review state)' })
  },
}
