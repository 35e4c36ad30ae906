// The same app in Vue 3, the other way apps are built: the new-item box sits in a <form> with no
// submit button (Enter submits it), v-model on the box and on each row's checkbox.
import { createApp, ref } from 'vue';

interface Todo {
  id: number;
  title: string;
  completed: boolean;
}

createApp({
  setup() {
    const todos = ref<Todo[]>([]);
    const draft = ref('');
    const add = () => {
      if (!draft.value.trim()) return;
      todos.value.push({ id: Date.now() + Math.random(), title: draft.value.trim(), completed: false });
      draft.value = '';
    };
    const remove = (todo: Todo) => {
      todos.value = todos.value.filter((other) => other.id !== todo.id);
    };
    const state = () => JSON.stringify(todos.value.map(({ title, completed }) => ({ title, completed })));
    return { todos, draft, add, remove, state };
  },
  template: `
    <section class="todoapp" :data-todos="state()">
      <header class="header">
        <h1>todos</h1>
        <form @submit.prevent="add">
          <input class="new-todo" placeholder="What needs to be done?" v-model="draft" />
        </form>
      </header>
      <ul class="todo-list">
        <li v-for="todo in todos" :key="todo.id" :class="{ completed: todo.completed }">
          <input class="toggle" type="checkbox" v-model="todo.completed" />
          <label>{{ todo.title }}</label>
          <button type="button" class="destroy" @click="remove(todo)">Delete</button>
        </li>
      </ul>
      <footer class="footer">
        <span class="todo-count"><strong>{{ todos.filter((t) => !t.completed).length }}</strong>
          {{ todos.filter((t) => !t.completed).length === 1 ? 'item' : 'items' }} left</span>
      </footer>
    </section>`,
}).mount('#app');
