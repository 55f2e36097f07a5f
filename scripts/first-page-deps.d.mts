// Types for first-page-deps.mjs (plain JavaScript: it runs before anything is installed).
export interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
export interface Lock {
  packages: Record<string, LockEntry>;
}
export interface Manifest {
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}
export const AFTER_FIRST_PAGE: Record<string, string>;
export function closure(packages: Lock["packages"], roots: string[]): Set<string>;
export function firstPageManifest(
  manifest: Manifest,
  lock: Lock,
): { manifest: Manifest; lock: Lock; counts: { kept: number; all: number } };
export function splitFirstPage(
  first: { manifest: Manifest; lock: Lock },
  parts: number,
): { manifest: Manifest; lock: Lock }[];
export function mergeParts(staging: string): number;
