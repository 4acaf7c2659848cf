export * from './submissions.repo.js';
