/**
 * How long a test or hook may run before it counts as hung (the slowest unit test took about 70 s on two cores at
 * load 20). No verdict may depend on the machine's speed: tests wait for events, and this limit only catches a hang,
 * so no test sets a lower one (src/testing/no-speed-budgets.test.ts).
 */
export const TEST_HANG_LIMIT_MS = 600_000
