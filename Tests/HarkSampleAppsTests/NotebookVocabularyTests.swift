import Testing

@testable import HarkSampleApps

/// What the notebook apps register as `notebookItemTitle`: the words a
/// list, note or task can be named by.
@Suite("Notebook apps' vocabulary")
struct NotebookVocabularyTests {
    static let book = NotebookStore.Notebook(lists: [
        TaskList(title: "Hardware Store", tasks: ["nails", "run five k"]),
        TaskList(title: "Training", tasks: ["Run five K", "stretch"]),
    ], notes: [Note(title: "Ideas", content: "a banana phone")])

    @Test("ListOMat: its lists' titles, then each of their words")
    func listOMat() {
        #expect(ListOMat.vocabulary(in: Self.book) == ["Hardware Store", "Training", "Hardware", "Store"])
    }

    @Test("TasksNotes: lists and notes with their words, then every task whole, the last added first, each once")
    func tasksNotes() {
        // "five" of "run five k" alone is no task: out of grammar, "tick off
        // five five" was heard as a request to tick one off.
        #expect(TasksNotes.vocabulary(in: Self.book)
            == ["Hardware Store", "Training", "Ideas", "Hardware", "Store", "stretch", "Run five K", "nails"])
    }
}
