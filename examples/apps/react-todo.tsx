// A TodoMVC-style app in React: a controlled input that adds on Enter (no <form>), rows with a
// checkbox and a delete button shown on hover, and a count of what is left. It publishes no tools.
import { type KeyboardEvent, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

function App() {
  const [todos, setTodos] = useState<Todo[]>([]);
  const [draft, setDraft] = useState('');
  const add = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || !draft.trim()) return;
    setTodos((list) => [...list, { id: Date.now() + Math.random(), title: draft.trim(), completed: false }]);
    setDraft('');
  };
  const left = todos.filter((todo) => !todo.completed).length;
  return (
    <section
      className="todoapp"
      data-todos={JSON.stringify(todos.map(({ title, completed }) => ({ title, completed })))}
    >
      <header className="header">
        <h1>todos</h1>
        <input
          className="new-todo"
          placeholder="What needs to be done?"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={add}
        />
      </header>
      <ul className="todo-list">
        {todos.map((todo) => (
          <li key={todo.id} className={todo.completed ? 'completed' : ''}>
            <input
              className="toggle"
              type="checkbox"
              checked={todo.completed}
              onChange={() =>
                setTodos((list) =>
                  list.map((other) => (other === todo ? { ...other, completed: !other.completed } : other)),
                )
              }
            />
            <label>{todo.title}</label>
            <button
              type="button"
              className="destroy"
              onClick={() => setTodos((list) => list.filter((other) => other !== todo))}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <footer className="footer">
        <span className="todo-count">
          <strong>{left}</strong> {left === 1 ? 'item' : 'items'} left
        </span>
      </footer>
    </section>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
