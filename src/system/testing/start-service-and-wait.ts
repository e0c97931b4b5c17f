import { startService } from '../service-launcher.ts'

/**
 * Test program: starts a service (argv: command, url), prints its lines and "ready", then idles until
 * killed; the test kills it with SIGKILL to check the service does not outlive it.
 */
const [command, url] = process.argv.slice(2)
if (command === undefined || url === undefined) throw new Error('usage: start-service-and-wait.ts <command> <url>')
await startService({ command, url, cwd: process.cwd(), log: (line) => console.log(line) })
console.log('ready')
setInterval(() => undefined, 60_000)
