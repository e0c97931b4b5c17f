import { expect } from 'vitest'
import { ragMatchers } from './matchers/index.ts'

// Registered for both Vitest projects (setupFiles), so unit tests and evaluation cases share them.
expect.extend(ragMatchers)
