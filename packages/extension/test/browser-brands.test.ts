import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { identifyBrowser } from '../src/background/browser-brands';

// What each browser's navigator.userAgentData lists (brands, then fullVersionList), and the
// reduced user agent string they all share.
const REDUCED_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const notABrand = { brand: 'Not=A?Brand', version: '24' };

describe('the browser name and version connect_browser reports (issue 28)', () => {
  it('Google Chrome is Chrome, with its full version', () => {
    const brands = [notABrand, { brand: 'Chromium', version: '156' }, { brand: 'Google Chrome', version: '156' }];
    const full = [
      { brand: 'Chromium', version: '156.0.8078.108' },
      { brand: 'Google Chrome', version: '156.0.8078.108' },
    ];
    assert.deepEqual(identifyBrowser(brands, full, REDUCED_UA), { name: 'Chrome', version: '156.0.8078.108' });
  });

  it('Brave is Brave, Edge is Edge, whatever order they list their brands in', () => {
    const brave = [{ brand: 'Brave', version: '156' }, { brand: 'Chromium', version: '156' }, notABrand];
    assert.deepEqual(identifyBrowser(brave, undefined, REDUCED_UA), { name: 'Brave', version: '156' });
    const edge = [
      { brand: 'Chromium', version: '156' },
      { brand: 'Microsoft Edge', version: '156' },
    ];
    const edgeFull = [{ brand: 'Microsoft Edge', version: '156.0.3485.54' }];
    assert.deepEqual(identifyBrowser(edge, edgeFull, REDUCED_UA), { name: 'Edge', version: '156.0.3485.54' });
  });

  it('Chromium is Chromium', () => {
    const brands = [{ brand: 'Chromium', version: '156' }, notABrand];
    assert.deepEqual(identifyBrowser(brands, undefined, REDUCED_UA), { name: 'Chromium', version: '156' });
  });

  it('without client hints, the user agent string decides', () => {
    assert.deepEqual(identifyBrowser(undefined, undefined, `${REDUCED_UA} Edg/156.0.0.0`), {
      name: 'Edge',
      version: '156.0.0.0',
    });
    assert.equal(identifyBrowser(undefined, undefined, REDUCED_UA).name, 'Chromium');
  });
});
