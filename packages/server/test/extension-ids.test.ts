import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { parseCliOptions } from '../src/options';

/** Issue 11: a store or zip copy of the extension has its own id; the user names it to tabmcp. */
describe('more extension ids to accept', () => {
  const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
  const ZIP_ID = 'ponmlkjihgfedcbaponmlkjihgfedcba';

  afterEach(() => {
    delete process.env.TABMCP_EXTENSION_IDS;
  });

  it('none by default: only the dev id is accepted', () => {
    assert.deepEqual(parseCliOptions([]).extraExtensionIds, []);
  });

  it('from repeated --allow-extension-id and from TABMCP_EXTENSION_IDS, comma-separated, once each', () => {
    process.env.TABMCP_EXTENSION_IDS = ` ${ZIP_ID},${STORE_ID} ,`;
    const options = parseCliOptions(['--allow-extension-id', STORE_ID, '--allow-extension-id', STORE_ID]);
    assert.deepEqual(options.extraExtensionIds, [STORE_ID, ZIP_ID]);
  });

  it('refuses what is not an extension id, saying where to find the right one', () => {
    assert.throws(() => parseCliOptions(['--allow-extension-id', 'chrome-extension://abc']), /chrome:\/\/extensions/);
    process.env.TABMCP_EXTENSION_IDS = 'ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP';
    assert.throws(
      () => parseCliOptions([]),
      /TABMCP_EXTENSION_IDS: "ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP" is not an extension id/,
    );
  });
});
