// The todo app in Angular 22, zoneless, compiled in the browser (JIT) so esbuild alone builds it:
// [(ngModel)] on the box, (keyup.enter) to add, signals for the list.
import '@angular/compiler';
import { Component, enableProdMode, provideZonelessChangeDetection, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { bootstrapApplication } from '@angular/platform-browser';

interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

@Component({
  selector: 'todo-app',
  imports: [FormsModule],
  template: `
    <section class="todoapp" [attr.data-todos]="snapshot()">
      <header class="header">
        <h1>todos</h1>
        <input class="new-todo" placeholder="What needs to be done?" [(ngModel)]="text" (keyup.enter)="add()" />
      </header>
      <ul class="todo-list">
        @for (todo of todos(); track todo.id) {
          <li [class.completed]="todo.completed">
            <input class="toggle" type="checkbox" [checked]="todo.completed" (change)="toggle(todo)" />
            <label>{{ todo.title }}</label>
            <button type="button" class="destroy" aria-label="Delete" (click)="remove(todo)">×</button>
          </li>
        }
      </ul>
      <footer class="footer">
        <span class="todo-count"><strong>{{ left() }}</strong> {{ left() === 1 ? 'item' : 'items' }} left</span>
      </footer>
    </section>`,
})
class TodoApp {
  text = '';
  readonly todos = signal<Todo[]>([]);
  left = () => this.todos().filter((todo) => !todo.completed).length;
  snapshot = () => JSON.stringify(this.todos().map(({ title, completed }) => ({ title, completed })));

  add() {
    if (!this.text.trim()) return;
    this.todos.update((todos) => [...todos, { id: Math.random(), title: this.text.trim(), completed: false }]);
    this.text = '';
  }
  toggle(todo: Todo) {
    this.todos.update((todos) =>
      todos.map((other) => (other === todo ? { ...todo, completed: !todo.completed } : other)),
    );
  }
  remove(todo: Todo) {
    this.todos.update((todos) => todos.filter((other) => other !== todo));
  }
}

enableProdMode();
bootstrapApplication(TodoApp, { providers: [provideZonelessChangeDetection()] }).catch((error: unknown) =>
  console.error(error),
);
