// Glue only: Angular Material's mat-select in a form field (its options in a CDK overlay), compiled in
// the browser (JIT, zoneless) so esbuild alone builds it, as examples/apps/angular-todo.ts is.
import '@angular/compiler';
import { Component, enableProdMode, provideZonelessChangeDetection } from '@angular/core';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatSelectModule } from '@angular/material/select';
import { bootstrapApplication } from '@angular/platform-browser';
import { expose } from './shared';

@Component({
  selector: 'order-form',
  imports: [MatFormFieldModule, MatSelectModule],
  template: `
    <main style="max-width: 360px; margin: 2em">
      <h1>Lunch order</h1>
      <mat-form-field>
        <mat-label>Favorite food</mat-label>
        <mat-select (selectionChange)="picked($event.value)">
          @for (food of foods; track food) {
            <mat-option [value]="food">{{ food }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
    </main>`,
})
class OrderForm {
  readonly foods = ['Steak', 'Pizza', 'Tacos', 'Ramen', 'Falafel'];
  picked(food: string) {
    expose('food', food);
  }
}

enableProdMode();
bootstrapApplication(OrderForm, { providers: [provideZonelessChangeDetection()] }).catch((error) => {
  document.body.textContent = `Angular did not start: ${error}`;
});
