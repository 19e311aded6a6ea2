/** Ratings: what the rest of the app may use of src/ratings. */
export { RatingsModule } from './ratings.module';
export { RatingsService } from './ratings.service';
export type { RatingChange } from './ratings.service';
export { ratingEvents } from './rating-events';
