import { fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { isTyping, keyName, useShortcuts } from './shortcuts.js';

/** A page with the shortcuts a queue has, a text box, a checkbox and a dialog, saying what each key did. */
function Keys() {
  const [said, setSaid] = useState<string[]>([]);
  const say = (what: string) => () => setSaid((s) => [...s, what]);
  useShortcuts({ j: say('next'), k: say('previous'), Enter: say('open'), '?': say('help'), Escape: say('back'), 'shift+o': say('status open') });
  return (
    <>
      <label htmlFor="box">Reply</label>
      <textarea id="box" />
      <label htmlFor="find">Find</label>
      <input id="find" type="search" />
      <label htmlFor="pick">Pick</label>
      <input id="pick" type="checkbox" />
      <dialog aria-label="Help">
        <button type="button">Close</button>
      </dialog>
      <output aria-label="Said">{said.join(', ')}</output>
    </>
  );
}

describe('keyboard shortcuts (web/src/shortcuts.ts)', () => {
  it('j, k, Enter, ? and Esc call their handlers, once each, and take the key (default prevented)', () => {
    const view = render(<Keys />);
    const said = view.getByLabelText('Said');
    for (const key of ['j', 'k', 'Enter', '?', 'Escape']) expect(fireEvent.keyDown(document.body, { key })).toBe(false);
    expect(said.textContent).toBe('next, previous, open, help, back');
    // Shift+O is its own shortcut; a key no one named is left alone.
    fireEvent.keyDown(document.body, { key: 'O', shiftKey: true });
    expect(fireEvent.keyDown(document.body, { key: 'x' })).toBe(true);
    expect(said.textContent).toBe('next, previous, open, help, back, status open');
  });

  it('stays out of the way while typing in a text field (Esc aside), with a modifier held, or with a dialog open', () => {
    const view = render(<Keys />);
    const said = view.getByLabelText('Said');
    for (const field of [view.getByLabelText('Reply'), view.getByLabelText('Find')]) {
      field.focus();
      for (const key of ['j', 'k', 'Enter', '?']) expect(fireEvent.keyDown(field, { key })).toBe(true);
    }
    expect(said.textContent).toBe('');
    // Esc still works from a text box (it leaves it).
    fireEvent.keyDown(view.getByLabelText('Find'), { key: 'Escape' });
    expect(said.textContent).toBe('back');
    // A checkbox is not a text field.
    fireEvent.keyDown(view.getByLabelText('Pick'), { key: 'j' });
    expect(said.textContent).toBe('back, next');
    // Ctrl+J, Alt+K and Cmd+Enter belong to the browser.
    fireEvent.keyDown(document.body, { key: 'j', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'k', altKey: true });
    fireEvent.keyDown(document.body, { key: 'Enter', metaKey: true });
    expect(said.textContent).toBe('back, next');
    // An open dialog has the keyboard to itself.
    view.container.querySelector('dialog')!.setAttribute('open', '');
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(said.textContent).toBe('back, next');
  });

  it('leaves Enter to a focused button or link, which it activates', () => {
    const view = render(
      <>
        <Keys />
        <button type="button">Load more</button>
        <a href="/app/tickets/t1">T-1</a>
      </>,
    );
    for (const control of [view.getByRole('button', { name: 'Load more' }), view.getByRole('link', { name: 'T-1' })]) {
      control.focus();
      expect(fireEvent.keyDown(control, { key: 'Enter' })).toBe(true);
      // Other keys are still shortcuts there.
      fireEvent.keyDown(control, { key: 'j' });
    }
    expect(view.getByLabelText('Said').textContent).toBe('next, next');
  });

  it('leaves a key another handler already took', () => {
    const view = render(<Keys />);
    const box = view.getByLabelText('Pick');
    box.addEventListener('keydown', (e) => e.preventDefault());
    fireEvent.keyDown(box, { key: 'j' });
    expect(view.getByLabelText('Said').textContent).toBe('');
  });

  it('names keys as the maps spell them, and knows a text field', () => {
    expect(keyName(new KeyboardEvent('keydown', { key: 'P', shiftKey: true }))).toBe('shift+p');
    expect(keyName(new KeyboardEvent('keydown', { key: '?', shiftKey: true }))).toBe('?');
    const select = document.createElement('select');
    const radio = Object.assign(document.createElement('input'), { type: 'radio' });
    expect([isTyping(select), isTyping(radio), isTyping(document.body), isTyping(null)]).toEqual([true, false, false, false]);
  });
});
