import { useEffect, useMemo } from 'react';
import { usePageAnswer, type PageAnswer } from '../../../lib/page-data.tsx';
import { carDetailPath, questionsPath, type CarDetail, type CarQuestions } from '../api/car-room-api.ts';
import { applyDetail, applyNotFound, applyQuestions, emptyRoom, type CarRoom } from '../stores/car-room-merge.ts';
import { closeRoom, openRoom, useCarRoomStore } from '../stores/car-room-store.ts';

/**
 * The room as a server-rendered page drew it: the car (with its Seller Q&A when the page holds
 * it), or not found; undefined without an answer.
 */
function roomFromPage(carId: number, answer: PageAnswer | undefined, questions: PageAnswer | undefined): CarRoom | undefined {
  if (!answer) return undefined;
  if (answer.status === 200 && answer.data) {
    const room = applyDetail(emptyRoom(carId), answer.data as CarDetail);
    return questions?.status === 200 && questions.data ? applyQuestions(room, (questions.data as CarQuestions).questions) : room;
  }
  return answer.status === 404 || answer.status === 400 ? applyNotFound(emptyRoom(carId)) : undefined;
}

/**
 * Opens the car's room while the screen is mounted (live join + snapshots) and returns its state.
 * On a page the server rendered, the room starts from the car the page was drawn with, so the
 * first render matches the HTML and the screen never passes through "Loading".
 */
export function useCarRoom(carId: number | null): CarRoom | undefined {
  const answer = usePageAnswer(carId === null ? null : carDetailPath(carId));
  const questions = usePageAnswer(carId === null ? null : questionsPath(carId));
  const fromPage = useMemo(() => (carId === null ? undefined : roomFromPage(carId, answer, questions)), [carId, answer, questions]);
  useEffect(() => {
    if (carId === null) return;
    openRoom(carId, fromPage);
    return () => closeRoom(carId);
    // The page's room only seeds the first opening; `carId` decides when the room changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [carId]);
  const room = useCarRoomStore((s) => (carId === null ? undefined : s.rooms[carId]));
  return room ?? fromPage;
}
