import { describe, expect, it } from 'vitest'
import type { TestSpecification, Vitest } from 'vitest/node'
import { PACKAGE_PROJECT, PackageFilesSequencer } from './package-files-sequencer.ts'

/** A file of a project, as much of a TestSpecification as Vitest's default sort reads. */
const file = (project: string, name: string, isolate: boolean) =>
  ({
    moduleId: `/repo/${name}`,
    project: { name: project, config: { isolate, sequence: { groupOrder: 0 } } },
  }) as unknown as TestSpecification

/** A Vitest with no results or file sizes cached: its default order is the projects' names, then the given order. */
const vitest = (maxWorkers: number) =>
  ({
    config: { root: '/repo', maxWorkers },
    cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
  }) as unknown as Vitest

const names = (files: TestSpecification[]) => files.map((spec) => spec.moduleId.slice('/repo/'.length))

describe('PackageFilesSequencer', () => {
  const files = [
    file('unit', 'u1', true),
    file('shared-modules', 's1', false),
    file(PACKAGE_PROJECT, 'p1', false),
    file(PACKAGE_PROJECT, 'p2', false),
    file('eval', 'e1', true),
    file(PACKAGE_PROJECT, 'p3', false),
    file('shared-modules', 's2', false),
    file(PACKAGE_PROJECT, 'p4', false),
    file('unit', 'u2', true),
  ]

  it('keeps maxWorkers - 1 package files in place, the rest after the shared-module files, before the isolated ones', async () => {
    // Vitest's own order would be e1 p1 p2 p3 p4 s1 s2 u1 u2.
    expect(names(await new PackageFilesSequencer(vitest(3)).sort(files))).toEqual([
      'e1',
      'p1',
      'p2',
      's1',
      's2',
      'p3',
      'p4',
      'u1',
      'u2',
    ])
  })

  it('keeps one in place with one worker, and the order of a run of the package project alone', async () => {
    expect(names(await new PackageFilesSequencer(vitest(1)).sort(files))).toEqual([
      'e1',
      'p1',
      's1',
      's2',
      'p2',
      'p3',
      'p4',
      'u1',
      'u2',
    ])
    const alone = files.filter((spec) => spec.project.name === PACKAGE_PROJECT)
    expect(names(await new PackageFilesSequencer(vitest(3)).sort(alone))).toEqual(['p1', 'p2', 'p3', 'p4'])
  })
})
