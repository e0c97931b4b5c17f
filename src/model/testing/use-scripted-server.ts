import { afterAll, beforeAll, beforeEach } from 'vitest'
import { DEFAULT_BATCH_PLAN, startMessagesServer, type MessagesServer } from '../../model-server/messages-server.ts'
import { scriptedReply } from '../../model-server/scripted-responder.ts'

/**
 * A local Messages API server for a test file: started once, closed at the end, and before every test
 * reset to the scripted responder, no latency, the default batch plan and zeroed statistics.
 */
export function useScriptedServer(): { readonly server: MessagesServer } {
  let server: MessagesServer | undefined
  beforeAll(async () => {
    server = await startMessagesServer(scriptedReply)
  })
  afterAll(() => server?.close())
  beforeEach(() => {
    server!.resetStats()
    server!.latencyMs = 0
    server!.batchPlan = DEFAULT_BATCH_PLAN
    server!.setResponder(scriptedReply)
  })
  return {
    get server() {
      if (!server) throw new Error('the local Messages API server is not started yet (use it inside a test)')
      return server
    },
  }
}
