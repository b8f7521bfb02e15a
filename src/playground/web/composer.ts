/** The command bar: a Discord-like message box with a picker of commands, options and values; Tab or click picks, Enter sends. */
import {
  autocompleteSuggestions,
  parseCommandLine,
  registeredCommand,
  staticSuggestions,
  type Definition,
  type ParsedLine,
  type RegisteredCommand,
  type Suggestion,
} from '../command-line.js';
import type { Bootstrap } from '../protocol.js';
import type { PageMessages } from './messages.js';

export interface ComposerEnv {
  data: Bootstrap;
  /** In the acting member's locale: it changes with them. */
  messages(): PageMessages;
  member(): string;
  channelName(): string;
  /** The other side's name when the open channel is a DM, else undefined. */
  dmName(): string | undefined;
  /** Commands the acting member may see, in their client's language: Discord hides those needing permissions they lack. */
  definitions(): Definition[];
  /** Registered names; resolves to an error sentence, or undefined when accepted. */
  send(command: RegisteredCommand): Promise<string | undefined>;
  /** `focused`: the option's registered name. */
  autocomplete(command: RegisteredCommand, focused: string): Promise<{ name: string; value: string | number }[]>;
}

const AUTOCOMPLETE_DEBOUNCE_MS = 120;

export class Composer {
  readonly #env: ComposerEnv;
  readonly #input: HTMLInputElement;
  readonly #popup: HTMLElement;
  readonly #error: HTMLElement;
  /** Their name is shown, their value sent. */
  readonly #picks = new Map<string, { name: string; value: string | number }>();
  #suggestions: Suggestion[] = [];
  /** -1 until the member moves with the arrow keys. */
  #active = -1;
  #autocompleteSeq = 0;
  #timer: number | undefined;

  constructor(root: HTMLElement, env: ComposerEnv) {
    this.#env = env;
    this.#input = root.querySelector('input')!;
    this.#popup = root.querySelector('.picker')!;
    this.#error = root.querySelector('.composer-error')!;
    this.#input.addEventListener('input', () => this.refresh());
    this.#input.addEventListener('focus', () => this.refresh());
    this.#input.addEventListener('keydown', (e) => this.#key(e));
    this.#input.addEventListener('blur', () => setTimeout(() => this.#close(), 150));
  }

  /** Channel, member or language changed. */
  reset(): void {
    const dm = this.#env.dmName();
    this.#input.placeholder = dm ? this.#env.messages().playgroundPlaceholderDm(dm) : this.#env.messages().playgroundPlaceholder(this.#env.channelName());
    this.#error.textContent = '';
    if (document.activeElement === this.#input) this.refresh();
  }

  get #parsed(): ParsedLine {
    return parseCommandLine(this.#input.value, this.#env.definitions());
  }

  refresh(): void {
    const line = this.#input.value;
    this.#error.textContent = '';
    if (!line.startsWith('/')) return this.#close();
    const parsed = this.#parsed;
    const guild = { members: this.#env.data.members, channels: this.#env.data.channels, roles: this.#env.data.roles };
    const suggestions = staticSuggestions(line, parsed, this.#env.definitions(), guild);
    this.#show(suggestions, parsed);
    const focus = parsed.focus;
    if (focus.kind === 'option-value' && focus.option.autocomplete) {
      const seq = ++this.#autocompleteSeq;
      clearTimeout(this.#timer);
      this.#timer = window.setTimeout(async () => {
        const choices = await this.#env.autocomplete(registeredCommand(parsed, this.#picks), focus.option.key ?? focus.option.name).catch(() => []);
        if (seq !== this.#autocompleteSeq || this.#input.value !== line) return;
        this.#show([...autocompleteSuggestions(line, parsed, choices), ...suggestions], parsed);
      }, AUTOCOMPLETE_DEBOUNCE_MS);
    }
  }

  #title(parsed: ParsedLine): string {
    const f = parsed.focus;
    if (f.kind === 'command' || f.kind === 'subcommand') return this.#env.messages().playgroundPickerCommands();
    if (f.kind === 'option-name')
      return parsed.available.length
        ? this.#env.messages().playgroundPickerOptions(`/${parsed.definition!.name}${parsed.subcommand ? ` ${parsed.subcommand}` : ''}`)
        : this.#env.messages().playgroundPickerSend();
    return `${f.option.name}: ${f.option.description}`;
  }

  #show(suggestions: Suggestion[], parsed: ParsedLine): void {
    this.#suggestions = suggestions.slice(0, 25);
    this.#active = Math.min(this.#active, this.#suggestions.length - 1);
    this.#popup.replaceChildren();
    const title = document.createElement('div');
    title.className = 'picker-title';
    title.textContent = this.#title(parsed);
    this.#popup.append(title);
    this.#suggestions.forEach((s, i) => {
      const row = document.createElement('div');
      row.className = `picker-item${i === this.#active ? ' active' : ''}`;
      row.setAttribute('role', 'option');
      const label = document.createElement('span');
      label.className = 'picker-label';
      label.textContent = s.label;
      const detail = document.createElement('span');
      detail.className = 'picker-detail';
      detail.textContent = s.required ? this.#env.messages().playgroundPickerRequired(s.detail) : s.detail;
      row.append(label, detail);
      row.addEventListener('mousedown', (e) => {
        e.preventDefault();
        this.#pick(s);
      });
      this.#popup.append(row);
    });
    const hint = document.createElement('div');
    hint.className = 'picker-hint';
    hint.textContent = this.#env.messages().playgroundPickerHint();
    this.#popup.append(hint);
    this.#popup.hidden = false;
  }

  #close(): void {
    this.#popup.hidden = true;
    this.#active = -1;
  }

  #pick(s: Suggestion): void {
    if (s.pick) this.#picks.set(s.pick.option, { name: s.pick.name, value: s.pick.value });
    this.#input.value = s.line;
    this.#active = -1;
    this.#input.focus();
    this.refresh();
  }

  async #send(): Promise<void> {
    const parsed = this.#parsed;
    if (!this.#input.value.startsWith('/')) {
      this.#error.textContent = this.#env.messages().playgroundSlashOnly();
      return;
    }
    if (!parsed.definition) {
      this.#close();
      this.#error.textContent = this.#env.messages().playgroundUnknownCommand(this.#input.value.trim().split(/\s/)[0]!.slice(1));
      return;
    }
    const error = await this.#env.send(registeredCommand(parsed, this.#picks));
    if (error) {
      // The picker would cover the sentence; typing brings it back.
      this.#close();
      this.#error.textContent = error;
      return;
    }
    this.#input.value = '';
    this.#picks.clear();
    this.#close();
  }

  #key(e: KeyboardEvent): void {
    const open = !this.#popup.hidden && this.#suggestions.length > 0;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!open) return;
      e.preventDefault();
      const n = this.#suggestions.length;
      this.#active = e.key === 'ArrowDown' ? (this.#active + 1) % n : (this.#active - 1 + n) % n;
      this.#show(this.#suggestions, this.#parsed);
    } else if (e.key === 'Tab') {
      if (!open) return;
      e.preventDefault();
      this.#pick(this.#suggestions[Math.max(0, this.#active)]!);
    } else if (e.key === 'Escape') {
      this.#close();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const focus = this.#parsed.focus.kind;
      if (open && this.#active >= 0) this.#pick(this.#suggestions[this.#active]!);
      else if (open && (focus === 'command' || focus === 'subcommand')) this.#pick(this.#suggestions[0]!);
      else void this.#send();
    }
  }
}
