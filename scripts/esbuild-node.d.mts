export const FOR_NODE: {
  format: 'esm';
  platform: 'node';
  target: string;
  external: string[];
  banner: { js: string };
};
