import packageJson from '../package.json' with { type: 'json' };

/** tabmcp's version, from its package.json (inlined by the build): `--version`, serverInfo. */
export const TABMCP_VERSION: string = packageJson.version;
