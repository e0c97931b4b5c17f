import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The Vitest project of examples/*.test.ts, whose files wait for the tarball its global setup packs. */
export const PACKAGE_PROJECT = 'package'

/**
 * Vitest's order, but the package project's files no longer fill every worker while the tarball is packed (Vitest
 * sorts projects by name, so they came first and the workers waited while one core packed). Only maxWorkers - 1 of
 * them keep their place, so one worker runs other files meanwhile; the others follow the other projects' files
 * that share a module graph (placed among those, they would end a shared worker), ahead of the isolated ones.
 */
export class PackageFilesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const isPackage = (file: TestSpecification) => file.project.name === PACKAGE_PROJECT
    const start = sorted.findIndex(isPackage)
    if (start === -1) return sorted
    const packageFiles = sorted.filter(isPackage)
    const first = packageFiles.slice(0, Math.max(1, this.ctx.config.maxWorkers - 1))
    const others = sorted.slice(start).filter((file) => !isPackage(file))
    const isolated = others.findIndex((file) => file.project.config.isolate)
    const at = isolated === -1 ? others.length : isolated
    return [...sorted.slice(0, start), ...first, ...others.slice(0, at), ...packageFiles.slice(first.length), ...others.slice(at)]
  }
}
