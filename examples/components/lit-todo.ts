// A TodoMVC built from web components with Lit: each row is a component with its own shadow root,
// whose delete button shows on :host(:hover) (Lit puts static styles in adoptedStyleSheets).
import { css, html, LitElement } from 'lit';
import { repeat } from 'lit/directives/repeat.js';

interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

class TodoItem extends LitElement {
  static override properties = { todo: { attribute: false } };
  static override styles = css`
    li { display: flex; gap: 8px; align-items: center; padding: 6px 0; }
    .destroy { display: none; border: 0; background: none; font-size: 20px; cursor: pointer; }
    :host(:hover) .destroy { display: inline-block; }
    .completed label { text-decoration: line-through; color: #999; }
  `;
  declare todo: Todo;

  override render() {
    const send = (name: string) => () => this.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true }));
    return html`<li class=${this.todo.completed ? 'completed' : ''}>
      <input class="toggle" type="checkbox" .checked=${this.todo.completed} @change=${send('toggle')} />
      <label>${this.todo.title}</label>
      <button class="destroy" aria-label="Delete" @click=${send('destroy')}>×</button>
    </li>`;
  }
}

class TodoApp extends LitElement {
  static override properties = { todos: { state: true } };
  static override styles = css`
    .todo-list { list-style: none; padding: 0; }
    footer { display: flex; gap: 12px; }
  `;
  declare todos: Todo[];
  #next = 1;

  constructor() {
    super();
    this.todos = [];
  }

  #add(event: KeyboardEvent) {
    const input = event.target as HTMLInputElement;
    if (event.key !== 'Enter' || !input.value.trim()) return;
    this.todos = [...this.todos, { id: this.#next++, title: input.value.trim(), completed: false }];
    input.value = '';
  }

  override render() {
    const left = this.todos.filter((todo) => !todo.completed).length;
    return html`<header>
        <h1>todos</h1>
        <input class="new-todo" placeholder="What needs to be done?" @keydown=${this.#add} />
      </header>
      <ul class="todo-list">
        ${repeat(
          this.todos,
          (todo) => todo.id,
          (todo) =>
            html`<todo-item
              .todo=${todo}
              @toggle=${() => {
                this.todos = this.todos.map((other) =>
                  other === todo ? { ...todo, completed: !todo.completed } : other,
                );
              }}
              @destroy=${() => {
                this.todos = this.todos.filter((other) => other !== todo);
              }}
            ></todo-item>`,
        )}
      </ul>
      ${
        this.todos.length
          ? html`<footer>
            <span class="todo-count">${left} ${left === 1 ? 'item' : 'items'} left</span>
            <button
              class="clear-completed"
              @click=${() => {
                this.todos = this.todos.filter((todo) => !todo.completed);
              }}
            >
              Clear completed
            </button>
          </footer>`
          : ''
      }`;
  }
}

customElements.define('todo-item', TodoItem);
customElements.define('todo-app', TodoApp);
