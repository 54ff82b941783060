import { useEffect, useRef } from 'react';

/** Every shortcut of the console, as the ? dialog lists them. */
export const SHORTCUTS: { keys: string[]; what: string; where: string }[] = [
  { keys: ['?'], what: 'Show this list of shortcuts', where: 'Everywhere' },
  { keys: ['/'], what: 'Search tickets', where: 'Everywhere' },
  { keys: ['Esc'], what: 'Close a dialog, leave a text box, or go back to the queue', where: 'Everywhere' },
  { keys: ['g', 'q'], what: 'Go to the queue', where: 'Everywhere' },
  { keys: ['g', 'c'], what: 'Go to customers', where: 'Everywhere' },
  { keys: ['g', 'd'], what: 'Go to the dashboard', where: 'Everywhere' },
  { keys: ['j'], what: 'Next ticket', where: 'Queue and ticket' },
  { keys: ['k'], what: 'Previous ticket', where: 'Queue and ticket' },
  { keys: ['Enter'], what: 'Open the selected ticket', where: 'Queue' },
  { keys: ['r'], what: 'Write a public reply', where: 'Ticket' },
  { keys: ['n'], what: 'Write an internal note', where: 'Ticket' },
  { keys: ['Ctrl', 'Enter'], what: 'Send the reply or note', where: 'Ticket (in the text box)' },
  { keys: ['a'], what: 'Assign the ticket to me', where: 'Ticket' },
  { keys: ['Shift', 'O'], what: 'Set status: open', where: 'Ticket' },
  { keys: ['Shift', 'P'], what: 'Set status: pending', where: 'Ticket' },
  { keys: ['Shift', 'S'], what: 'Set status: resolved (solved)', where: 'Ticket' },
  { keys: ['Shift', 'C'], what: 'Set status: closed', where: 'Ticket' },
];

type Handler = (event: KeyboardEvent) => void;

/** Whether the key was typed into a text field (shortcuts then stay out of the way, Esc aside). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'file'].includes(target.type);
}

/** Whether the element is a control Enter activates by itself (a button, a link): Enter then stays with it. */
function activatedByEnter(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('button, a[href], summary, [role="button"]') !== null;
}

/** The name of a key press as the maps below spell it: "j", "shift+o", "?", "Escape", "Enter". */
export function keyName(event: KeyboardEvent): string {
  if (event.shiftKey && /^[a-z]$/i.test(event.key)) return `shift+${event.key.toLowerCase()}`;
  return event.key;
}

/**
 * Calls the handler named by a key press, unless the key goes to a text field (except Escape), Enter
 * goes to a button or link (which it activates), a modifier is held, or a dialog is open. Handlers are read at press time, so they see fresh state.
 */
export function useShortcuts(map: Record<string, Handler>): void {
  const ref = useRef(map);
  ref.current = map;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const name = keyName(event);
      if (name !== 'Escape' && isTyping(event.target)) return;
      if (name === 'Enter' && activatedByEnter(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const handler = ref.current[name];
      if (handler) {
        event.preventDefault();
        handler(event);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Says something to assistive technology (the polite live region of the shell). */
export function announce(message: string): void {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  window.setTimeout(() => {
    region.textContent = message;
  }, 30);
}
