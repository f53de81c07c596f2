package memory

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// noAnswer is what the model is told to reply when the records do not
// answer the question.
const noAnswer = "NO_ANSWER"

const chatInstructions = `You answer questions about past review decisions (judgments) of a team.
Use only the records given below; never add facts that are not in them.
Cite every record you rely on by its id in square brackets, for example [rec-42].
Answer in at most three sentences.
If the records do not answer the question, reply exactly ` + noAnswer + `.`

// chatAnswer has the chat model write the answer from the records and
// returns it with the records it cites. A model that cites nothing is
// taken to rely on all of them; one that declines gives "".
func (s *Service) chatAnswer(ctx context.Context, question string, found []scored) (string, []scored, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Question: %s\n\nRecords:\n", question)
	for _, sc := range found {
		fmt.Fprintf(&b, "[%s] decision: %s; reviewer: %s; date: %s; reasoning: %s\n",
			sc.RecordID, sc.Decision, reviewerName(sc.Stored),
			time.UnixMilli(sc.CreatedAt).UTC().Format(time.DateOnly), sc.Reasoning)
	}
	answer, err := s.Chat.Complete(ctx, chatInstructions, b.String())
	if err != nil {
		return "", nil, err
	}
	answer = strings.TrimSpace(answer)
	if answer == "" || strings.Contains(answer, noAnswer) {
		return "", nil, nil
	}
	var cited []scored
	for _, sc := range found {
		if strings.Contains(answer, "["+sc.RecordID+"]") {
			cited = append(cited, sc)
		}
	}
	if len(cited) == 0 {
		cited = found
	}
	return answer, cited, nil
}

func reviewerName(j Stored) string {
	if j.Reviewer.Name != "" {
		return j.Reviewer.Name
	}
	if j.Reviewer.UserID != "" {
		return j.Reviewer.UserID
	}
	return "unknown"
}
