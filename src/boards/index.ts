/** The club board: what the rest of the app may use of src/boards. */
export { BoardsModule } from './boards.module';
