// Plain-JS todos in the style of older TodoMVC apps: Enter is read from keyCode, rows are rebuilt on every change.
const state = { todos: [], filter: location.hash.replace('#/', '') || 'all' };
const input = document.querySelector('.new-todo');
const list = document.querySelector('.todo-list');

input.addEventListener('keyup', (event) => {
  if (event.keyCode !== 13) return;
  const title = input.value.trim();
  if (!title) return;
  state.todos.push({ id: Date.now() + Math.random(), title, completed: false });
  input.value = '';
  render();
});

document.querySelector('.clear-completed').addEventListener('click', () => {
  state.todos = state.todos.filter((todo) => !todo.completed);
  render();
});
window.addEventListener('hashchange', () => {
  state.filter = location.hash.replace('#/', '') || 'all';
  render();
});

function render() {
  list.textContent = '';
  const shown = state.todos.filter((todo) =>
    state.filter === 'active' ? !todo.completed : state.filter === 'completed' ? todo.completed : true,
  );
  for (const todo of shown) {
    const li = document.createElement('li');
    li.className = todo.completed ? 'completed' : '';
    li.innerHTML =
      '<div class="view"><input class="toggle" type="checkbox"><label></label><button class="destroy">×</button></div><input class="edit">';
    li.querySelector('label').textContent = todo.title;
    const toggle = li.querySelector('.toggle');
    toggle.checked = todo.completed;
    toggle.addEventListener('change', () => {
      todo.completed = toggle.checked;
      render();
    });
    li.querySelector('.destroy').addEventListener('click', () => {
      state.todos = state.todos.filter((other) => other !== todo);
      render();
    });
    list.append(li);
  }
  const left = state.todos.filter((todo) => !todo.completed).length;
  // Separate nodes with a lone space between them, as frameworks render "<strong>1</strong> item left".
  const count = document.querySelector('.todo-count');
  count.textContent = '';
  const strong = document.createElement('strong');
  strong.textContent = String(left);
  const words = document.createElement('span');
  words.textContent = left === 1 ? 'item left' : 'items left';
  count.append(strong, document.createTextNode(' '), words);
}
render();
