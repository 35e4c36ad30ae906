import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BrowserSearch, findBrowser } from '../src/launcher/find-browser';

/** A machine where exactly these files exist; folders are derived from them. */
function machine(platform: NodeJS.Platform, env: BrowserSearch['env'], files: string[]): BrowserSearch {
  const separator = platform === 'win32' ? '\\' : '/';
  return {
    platform,
    env,
    exists: (path) => files.includes(path),
    list: (dir) => [
      ...new Set(
        files
          .filter((file) => file.startsWith(dir + separator))
          .map((file) => file.slice(dir.length + 1).split(separator)[0] ?? ''),
      ),
    ],
  };
}

describe('browser discovery (issue 11)', () => {
  it('Windows: per-user installs under %LOCALAPPDATA% and Program Files, Edge and Brave, Chromium first', () => {
    const env = {
      LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
      PROGRAMFILES: 'D:\\Programs',
      USERPROFILE: 'C:\\Users\\ann',
    };
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const userChrome = 'C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    const userBrave = 'C:\\Users\\ann\\AppData\\Local\\BraveSoftware\\Brave-Browser\\Application\\brave.exe';
    const userChromium = 'C:\\Users\\ann\\AppData\\Local\\Chromium\\Application\\chrome.exe';
    const programsChromium = 'D:\\Programs\\Chromium\\Application\\chrome.exe';
    assert.equal(findBrowser(undefined, machine('win32', env, [userChrome])), userChrome);
    assert.equal(findBrowser(undefined, machine('win32', env, [userChrome, edge])), edge);
    assert.equal(findBrowser(undefined, machine('win32', env, [userChrome, edge, userBrave])), userBrave);
    assert.equal(findBrowser(undefined, machine('win32', env, [edge, programsChromium])), programsChromium);
    assert.equal(findBrowser(undefined, machine('win32', env, [programsChromium, userChromium])), userChromium);
    const testing = 'C:\\Users\\ann\\.cache\\puppeteer\\chrome\\win64-131.0.6778.85\\chrome-win64\\chrome.exe';
    assert.equal(findBrowser(undefined, machine('win32', env, [userChrome, testing])), testing);
  });

  it('macOS: Chromium, Chrome for Testing, Brave, Edge, Chrome, in /Applications or ~/Applications', () => {
    const env = { HOME: '/Users/ann' };
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    const edge = '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    const brave = '/Users/ann/Applications/Brave Browser.app/Contents/MacOS/Brave Browser';
    const testing = '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
    const chromium = '/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium';
    assert.equal(findBrowser(undefined, machine('darwin', env, [chrome])), chrome);
    assert.equal(findBrowser(undefined, machine('darwin', env, [chrome, edge])), edge);
    assert.equal(findBrowser(undefined, machine('darwin', env, [chrome, edge, brave])), brave);
    assert.equal(findBrowser(undefined, machine('darwin', env, [brave, testing])), testing);
    assert.equal(findBrowser(undefined, machine('darwin', env, [testing, chromium])), chromium);
    const cached =
      '/Users/ann/.cache/puppeteer/chrome/mac_arm-131.0.6778.85/chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing';
    assert.equal(findBrowser(undefined, machine('darwin', env, [chrome, cached])), cached);
  });

  it('Linux: the usual names on PATH, then Chrome for Testing from the Puppeteer cache (newest), Brave, Edge, Chrome', () => {
    const env = { HOME: '/home/ann', PATH: '/home/ann/bin:/usr/local/bin' };
    const chrome = '/usr/bin/google-chrome-stable';
    const edge = '/usr/bin/microsoft-edge';
    const brave = '/usr/local/bin/brave-browser';
    const old = '/home/ann/.cache/puppeteer/chrome/linux-99.0.1.2/chrome-linux64/chrome';
    const newest = '/home/ann/.cache/puppeteer/chrome/linux-131.0.6778.85/chrome-linux64/chrome';
    const chromium = '/home/ann/bin/chromium-browser';
    assert.equal(findBrowser(undefined, machine('linux', env, [chrome])), chrome);
    assert.equal(findBrowser(undefined, machine('linux', env, [chrome, edge])), edge);
    assert.equal(findBrowser(undefined, machine('linux', env, [chrome, edge, brave])), brave);
    assert.equal(findBrowser(undefined, machine('linux', env, [brave, old, newest])), newest);
    assert.equal(findBrowser(undefined, machine('linux', env, [newest, chromium, '/snap/bin/chromium'])), chromium);
    const xdg = '/tmp/xdg/puppeteer/chrome/linux-1/chrome-linux64/chrome';
    assert.equal(findBrowser(undefined, machine('linux', { ...env, XDG_CACHE_HOME: '/tmp/xdg' }, [chrome, xdg])), xdg);
  });

  it('--browser and CHROME_PATH win, and a missing one is not replaced by a guess', () => {
    const files = ['/usr/bin/chromium', '/opt/mine/chrome'];
    assert.equal(findBrowser('/opt/mine/chrome', machine('linux', {}, files)), '/opt/mine/chrome');
    assert.equal(
      findBrowser(undefined, machine('linux', { CHROME_PATH: '/opt/mine/chrome' }, files)),
      '/opt/mine/chrome',
    );
    assert.equal(findBrowser('/nowhere/chrome', machine('linux', {}, files)), undefined);
    assert.equal(findBrowser(undefined, machine('linux', {}, [])), undefined);
  });
});
