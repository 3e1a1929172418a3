import { useId, useState } from 'react';
import { formatDate } from '../../../lib/relative-time.ts';
import { countLabel } from '../../../lib/quantities.ts';
import type { CarQuestion, ChatMessage } from '../api/car-room-api.ts';

/** Questions shown before "Show all". */
const FIRST_QUESTIONS = 5;

/** "Asked by Ana · Mar 4, 2025" (a calendar date, so the page drawn on the server and the app agree). */
function Byline({ message, verb }: { message: ChatMessage; verb: string }) {
  return (
    <p className="qa-item__meta">
      {verb} {message.userName} · <time dateTime={message.timestamp}>{formatDate(message.timestamp)}</time>
    </p>
  );
}

/**
 * Seller Q&A (contract v4): the car's questions with the seller's answers, answered first, then
 * newest first. It is on the page the server draws, and follows the discussion live: a new
 * question joins it, the seller's reply to one is its answer.
 */
export function SellerQuestions({ questions, loaded, failed }: { questions: readonly CarQuestion[]; loaded: boolean; failed: boolean }) {
  const titleId = useId();
  const [showAll, setShowAll] = useState(false);
  const answered = questions.filter((q) => q.answers.length > 0).length;
  const shown = showAll ? questions : questions.slice(0, FIRST_QUESTIONS);

  return (
    <section className="room-card qa" aria-labelledby={titleId} data-testid="seller-qa">
      <div className="split-row qa__header">
        <h2 id={titleId} className="room-card__title">
          Seller Q&amp;A
        </h2>
        {questions.length > 0 && (
          <span className="chat__count" data-testid="qa-count">
            {answered} of {countLabel(questions.length, 'question')} answered
          </span>
        )}
      </div>
      {!loaded && questions.length === 0 ? (
        <p className="muted">{failed ? 'The questions could not be loaded right now.' : 'Loading questions...'}</p>
      ) : questions.length === 0 ? (
        <p className="muted qa__empty">No questions yet. Ask the seller in the Live Discussion: choose Question before you send.</p>
      ) : (
        <>
          <ol className="qa__list">
            {shown.map(({ question, answers }) => (
              <li key={question.id} className="qa-item" data-testid="qa-item" data-message-id={question.id}>
                <div className="qa-item__row">
                  <span className="qa-item__mark" aria-hidden="true">
                    Q
                  </span>
                  <div className="qa-item__content">
                    <p className="qa-item__text" data-testid="qa-question">
                      <span className="sr-only">Question: </span>
                      {question.message}
                    </p>
                    <Byline message={question} verb="Asked by" />
                  </div>
                </div>
                {answers.length === 0 ? (
                  <p className="qa-item__waiting">Not answered yet</p>
                ) : (
                  answers.map((answer) => (
                    <div key={answer.id} className="qa-item__row qa-item__row--answer" data-testid="qa-answer">
                      <span className="qa-item__mark qa-item__mark--answer" aria-hidden="true">
                        A
                      </span>
                      <div className="qa-item__content">
                        <p className="qa-item__text">
                          <span className="sr-only">Answer: </span>
                          {answer.message}
                        </p>
                        <Byline message={answer} verb="Answered by" />
                      </div>
                    </div>
                  ))
                )}
              </li>
            ))}
          </ol>
          {questions.length > FIRST_QUESTIONS && (
            <button type="button" className="btn btn--outline btn--sm qa__more" aria-expanded={showAll} onClick={() => setShowAll(!showAll)}>
              {showAll ? 'Show fewer questions' : `Show all ${questions.length} questions`}
            </button>
          )}
        </>
      )}
    </section>
  );
}
