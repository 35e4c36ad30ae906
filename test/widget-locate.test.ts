import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withNewest } from '../test-support/widget-tasks/drive';
import { locate } from '../test-support/widget-tasks/locate';
import { devtoolsNodes } from '../test-support/widget-tasks/run-devtools-mcp';
import { playwrightNodes } from '../test-support/widget-tasks/run-playwright-mcp';
import { tabmcpNodes } from '../test-support/widget-tasks/run-tabmcp';

/**
 * The widget bench's runners find a task's elements in what each tool wrote, the same way for all
 * three (bench/widgets.ts): saved answers of each tool, and the element a model would pick.
 */
describe('widget tasks: finding an element by role and name in each tool’s read', () => {
  const playwright = playwrightNodes(
    [
      '### Snapshot',
      '```yaml',
      '- generic [active] [ref=e1]:',
      '  - list [ref=f1e4]:',
      '    - listitem [ref=f1e5]: Pay rent',
      '  - combobox [ref=e3]:',
      '    - option "Canada"',
      '  - combobox "Country" [ref=e6] [cursor=pointer]',
      '  - \'heading "Step 1: who is it for?" [level=2] [ref=f2e4]\'',
      '  - generic [ref=f5e36]:',
      '    - text: Window seat',
      '    - switch [ref=f5e39] [cursor=pointer]',
      '  - tablist [ref=f2e7]:',
      '    - generic:',
      '      - generic [ref=f2e9] [cursor=pointer]:',
      '        - tab "Favorites"',
      '```',
    ].join('\n'),
  );
  const devtools = devtoolsNodes(
    [
      'uid=2_0 RootWebArea "Board" url="http://x"',
      '  uid=2_2 listitem level="1"',
      '    uid=2_3 "Pay rent"',
      '  uid=1_3 combobox expandable haspopup="menu" value="Type a country"',
      '    uid=1_9 option "Canada"',
      '  uid=4_4 form',
      '    uid=4_8 "Window seat "',
      '    uid=4_9 switch',
      '  uid=2_4 checkbox',
      '  uid=2_5 "Walk the dog"',
      '  uid=2_6 checkbox',
      '  uid=2_7 "Water plants"',
      '  uid=20_4 tab "BILLING" selectable',
    ].join('\n'),
  );
  const tabmcp = tabmcpNodes(
    [
      '# Chores',
      '- [button "Call mom" s759] [button "Remove" (on hover) s291]',
      '- [button "Water plants" s539] [button "Remove" (on hover) s739]',
      'Attach a report [button s783]',
      '[clickable k348]',
      '',
      'Train',
      '[combobox "Country" = "" (collapsed) a644]',
    ].join('\n'),
  );

  it('by role and name, with the names as each tool escapes or quotes them', () => {
    assert.equal(locate(playwright, { role: 'combobox', name: 'Country' })?.ref, 'e6');
    assert.equal(locate(playwright, { role: 'heading', name: 'Step 1: who is it for?' })?.ref, 'f2e4');
    assert.equal(locate(tabmcp, { role: 'combobox', name: 'Country' })?.ref, 'a644');
    assert.equal(locate(devtools, { role: 'option', name: 'Canada' })?.ref, '1_9');
    assert.equal(locate(devtools, { role: 'tab', name: 'Billing' })?.ref, '20_4', 'as text-transform shows it');
  });

  it('an element the tool lists without a ref is not a target (a native option under its select)', () => {
    assert.equal(locate(playwright, { role: 'option', name: 'Canada' }), undefined);
    assert.deepEqual(
      playwright.find((node) => node.ref === 'e3')?.options,
      ['Canada'],
      'a native select knows its options',
    );
  });

  it('text stands for the list item that holds it, or for the unnamed control beside it', () => {
    assert.equal(locate(playwright, { name: 'Pay rent' })?.ref, 'f1e5');
    assert.equal(locate(devtools, { name: 'Pay rent' })?.ref, '2_2');
    assert.equal(locate(devtools, { role: 'switch', name: 'Window seat' })?.ref, '4_9', 'not the form around it');
    assert.equal(locate(playwright, { role: 'switch', name: 'Window seat' })?.ref, 'f5e39');
    assert.equal(locate(tabmcp, { name: 'Attach a report' })?.ref, 's783');
    assert.equal(locate(tabmcp, { role: 'tab', name: 'Train' })?.ref, 'k348');
  });

  it('a control listed without a ref stands for the plain box around it that has one (Ionic’s segment button)', () => {
    assert.equal(locate(playwright, { name: 'Favorites' })?.ref, 'f2e9');
  });

  it('a text box is found by its name or by the hint it shows while empty (TodoMVC react-redux: "New todo")', () => {
    const box = { role: 'textbox', name: 'What needs to be done?' };
    const fromPlaywright = playwrightNodes(
      ['```yaml', '- textbox "New todo" [ref=e5]:', '  - /placeholder: What needs to be done?', '```'].join('\n'),
    );
    assert.equal(locate(fromPlaywright, box)?.ref, 'e5');
    const fromTabmcp = tabmcpNodes('[textbox "New todo" = "" placeholder "What needs to be done?" q868]');
    assert.equal(locate(fromTabmcp, box)?.ref, 'q868');
    assert.equal(locate(fromTabmcp, { role: 'textbox', name: 'New todo' })?.ref, 'q868');
  });

  it('an answer that shows a handle again says what it is now (a calendar that reuses its cells for the next month)', () => {
    const november = tabmcpNodes('| [gridcell "14" m8633] | [gridcell "15" m2838] |\n[button "next month" m3385]');
    const december = tabmcpNodes('| [gridcell "13" m2838] | [gridcell "15" m3905] |');
    assert.equal(locate(withNewest(december, november), { role: 'gridcell', name: '15' }, 'm3385')?.ref, 'm3905');
  });

  it('`in` picks the one inside the row that holds the text', () => {
    assert.equal(locate(tabmcp, { role: 'button', name: 'Remove', in: 'Water plants' })?.ref, 's739');
    assert.equal(locate(tabmcp, { role: 'button', name: 'Remove', in: 'Call mom' })?.ref, 's291');
    assert.equal(locate(devtools, { role: 'checkbox', in: 'Walk the dog' })?.ref, '2_4');
  });
});
