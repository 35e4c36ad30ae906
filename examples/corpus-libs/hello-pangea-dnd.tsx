// Glue only: a board of two columns with @hello-pangea/dnd (drag by mouse or by keyboard: space, arrows).
import { DragDropContext, Draggable, Droppable, type DropResult } from '@hello-pangea/dnd';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { expose } from './shared';

type Columns = Record<string, string[]>;
const start: Columns = { 'To do': ['Write tests', 'Fix the login bug', 'Update the docs'], Done: ['Set up CI'] };

function Board() {
  const [columns, setColumns] = useState(start);
  expose('columns', columns);
  const moved = ({ source, destination }: DropResult) => {
    if (!destination) return;
    const next: Columns = Object.fromEntries(Object.entries(columns).map(([name, cards]) => [name, [...cards]]));
    const [card] = next[source.droppableId]?.splice(source.index, 1) ?? [];
    if (card) next[destination.droppableId]?.splice(destination.index, 0, card);
    setColumns(next);
  };
  return (
    <DragDropContext onDragEnd={moved}>
      <main style={{ display: 'flex', gap: 24, margin: '2em' }}>
        {Object.entries(columns).map(([name, cards]) => (
          <section key={name} style={{ width: 220 }}>
            <h2>{name}</h2>
            <Droppable droppableId={name}>
              {(drop) => (
                <div
                  ref={drop.innerRef}
                  {...drop.droppableProps}
                  style={{ minHeight: 200, background: '#eee', padding: 8 }}
                >
                  {cards.map((card, index) => (
                    <Draggable key={card} draggableId={card} index={index}>
                      {(drag) => (
                        <div
                          ref={drag.innerRef}
                          {...drag.draggableProps}
                          {...drag.dragHandleProps}
                          style={{ padding: 8, margin: '0 0 8px', background: 'white', ...drag.draggableProps.style }}
                        >
                          {card}
                        </div>
                      )}
                    </Draggable>
                  ))}
                  {drop.placeholder}
                </div>
              )}
            </Droppable>
          </section>
        ))}
      </main>
    </DragDropContext>
  );
}

createRoot(document.getElementById('app') as HTMLElement).render(<Board />);
