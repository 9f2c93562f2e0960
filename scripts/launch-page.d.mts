/** Types of launch-page.mjs for the TypeScript that uses it (the e2e suite). */
export function writeLaunchPage(
  url: string,
  env?: NodeJS.ProcessEnv,
): { file: string; fileUrl: string; remove: () => void }
