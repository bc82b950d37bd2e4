import Foundation
import HarkEngine
import HarkIntents

/// A list of tasks, as ListOMat and TasksNotes keep them.
public struct TaskList: Codable, Sendable, Equatable {
    public struct Task: Codable, Sendable, Equatable {
        public var title: String
        public var completed: Bool = false
        /// When to remind, as spoken ("at 8 am").
        public var due: String?
    }
    public var title: String
    public var tasks: [Task]

    public init(title: String, tasks: [String] = []) {
        self.title = title
        self.tasks = tasks.map { Task(title: $0) }
    }
}

/// A note, as TasksNotes keeps them.
public struct Note: Codable, Sendable, Equatable {
    public var title: String
    public var content: String
}

/// Lists and notes in one crash-safe document: what ListOMat and TasksNotes share.
public actor NotebookStore {
    public struct Notebook: Codable, Sendable, Equatable {
        public var lists: [TaskList]
        public var notes: [Note]
    }

    let document: JSONDocument<Notebook>

    /// - Throws: when the document exists but cannot be read.
    public init(container: AppGroupContainer, initial: Notebook) throws {
        document = try JSONDocument(url: container.url.appendingPathComponent("notebook.json"), initial: initial)
    }

    public var notebook: Notebook { get async { await document.value } }

    /// Every list and note title, and the words of each (so a partial title
    /// like "store" can be said and then resolved), as vocabulary.
    public func titles() async -> [String] {
        let book = await document.value
        return book.lists.map(\.title) + book.notes.map(\.title)
    }

    /// Deletes a list (the app's own screen would).
    public func removeList(_ title: String) async throws {
        try await update { $0.lists.removeAll { $0.title == title } }
    }

    func update(_ change: @Sendable (inout Notebook) -> Void) async throws {
        try await document.update(change)
    }

    func resolveList(_ asked: String?, required: Bool) async -> Resolution<String> {
        guard let asked else { return required ? .needsValue : .notRequired }
        return NameMatch.resolve(asked, among: await document.value.lists.map(\.title),
                                 none: "There's no list called \(asked).")
    }

    /// "1 task: apples" / "3 tasks: apples, bananas and pears".
    static func describe(_ list: TaskList) -> String {
        let open = list.tasks.filter { !$0.completed }.map(\.title)
        guard !open.isEmpty else { return "\(list.title) has nothing left to do." }
        let items = open.count == 1 ? open[0] : open.dropLast().joined(separator: ", ") + " and " + open.last!
        return "\(list.title) has \(items)."
    }
}

/// ListOMat: the List-o-Mat tutorial app — search a list by (part of) its
/// name, add tasks to a list.
public enum ListOMat {
    public static let appName = "ListOMat"
    public static let group = "group.com.example.listomat"

    /// The lists a new ListOMat starts with: two stores (a partial "store"
    /// is ambiguous), one grocery list (exact), one office list (a partial
    /// "office" has one match).
    public static let initial = NotebookStore.Notebook(lists: [
        TaskList(title: "Grocery", tasks: ["apples", "bananas"]),
        TaskList(title: "Grocery Store", tasks: ["milk"]),
        TaskList(title: "Hardware Store", tasks: ["nails", "glue"]),
        TaskList(title: "Office Supplies", tasks: ["paper"]),
        // Named in ListOMat's AppIntentVocabulary.plist (identifier banana-stash).
        TaskList(title: "Banana Stash", tasks: ["coconuts"]),
    ], notes: [])

    /// Finds a list.
    public struct SearchHandler: INSearchForNotebookItemsIntentHandling {
        public let store: NotebookStore

        public func resolveTitle(for intent: INSearchForNotebookItemsIntent) async throws -> Resolution<String> {
            await store.resolveList(intent.title, required: true)
        }

        public func handle(intent: INSearchForNotebookItemsIntent) async throws -> IntentResponse {
            guard let title = intent.title, let list = await store.notebook.lists.first(where: { $0.title == title }) else {
                return IntentResponse(code: .failure)
            }
            return IntentResponse(code: .success, message: NotebookStore.describe(list),
                                  output: ["list": list.title, "tasks": list.tasks.map(\.title).joined(separator: ", ")])
        }
    }

    /// Adds tasks to a list.
    public struct AddTasksHandler: INAddTasksIntentHandling {
        public let store: NotebookStore

        public init(store: NotebookStore) {
            self.store = store
        }

        public func resolveTargetTaskList(for intent: INAddTasksIntent) async throws -> Resolution<String> {
            await store.resolveList(intent.targetTaskList, required: true)
        }

        public func handle(intent: INAddTasksIntent) async throws -> IntentResponse {
            guard let title = intent.targetTaskList, let tasks = intent.taskTitles else { return IntentResponse(code: .failure) }
            let items = NameMatch.splitTasks(tasks)
            try await store.update { book in
                guard let i = book.lists.firstIndex(where: { $0.title == title }) else { return }
                book.lists[i].tasks += items.map { TaskList.Task(title: $0) }
            }
            return IntentResponse(code: .success, message: "\(items.count == 1 ? "It's" : "They're") on the \(title) list.",
                                  output: ["list": title, "added": items.joined(separator: ", ")])
        }
    }

    public static func handlers(_ store: NotebookStore) -> [String: any IntentHandler] {
        [
            "INSearchForNotebookItemsIntent": INSearchForNotebookItemsIntent.handler(SearchHandler(store: store)),
            "INAddTasksIntent": INAddTasksIntent.handler(AddTasksHandler(store: store)),
            // Making a list works as in TasksNotes.
            "INCreateTaskListIntent": INCreateTaskListIntent.handler(TasksNotes.CreateTaskListHandler(store: store)),
        ]
    }
}

/// TasksNotes: the iOS 11 lists-and-notes demo (also called MonkeyNotes and
/// MonkeyTodo): make lists, add tasks and reminders, tick tasks off, write notes.
public enum TasksNotes {
    public static let appName = "TasksNotes"
    public static let group = "group.com.example.tasksnotes"
    /// Where reminders without a list go.
    public static let reminders = "Reminders"

    public static let initial = NotebookStore.Notebook(lists: [
        TaskList(title: "Training", tasks: ["run five k"]),
        TaskList(title: "Shopping", tasks: ["buy iPhone", "buy bananas"]),
        TaskList(title: reminders, tasks: []),
    ], notes: [Note(title: "Ideas", content: "a banana phone")])

    public struct CreateTaskListHandler: INCreateTaskListIntentHandling {
        public let store: NotebookStore

        public func resolveTitle(for intent: INCreateTaskListIntent) async throws -> Resolution<String> {
            guard let title = intent.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty else { return .needsValue }
            let name = title.prefix(1).uppercased() + title.dropFirst()
            if await store.notebook.lists.contains(where: { $0.title.lowercased() == name.lowercased() }) {
                return .unsupported(reason: "You already have a \(name) list.")
            }
            return .success(with: name)
        }

        public func handle(intent: INCreateTaskListIntent) async throws -> IntentResponse {
            guard let title = intent.title else { return IntentResponse(code: .failure) }
            let tasks = intent.taskTitles.map(NameMatch.splitTasks) ?? []
            try await store.update { $0.lists.append(TaskList(title: title, tasks: tasks)) }
            return IntentResponse(code: .success, message: tasks.isEmpty ? nil : "It has \(tasks.joined(separator: ", ")).",
                                  output: ["list": title, "tasks": tasks.joined(separator: ", ")])
        }
    }

    public struct AddTasksHandler: INAddTasksIntentHandling {
        public let store: NotebookStore

        public init(store: NotebookStore) {
            self.store = store
        }

        public func resolveTargetTaskList(for intent: INAddTasksIntent) async throws -> Resolution<String> {
            // "Remind me to …" names no list: it goes to Reminders.
            guard intent.targetTaskList != nil else { return .success(with: TasksNotes.reminders) }
            return await store.resolveList(intent.targetTaskList, required: true)
        }

        public func handle(intent: INAddTasksIntent) async throws -> IntentResponse {
            guard let tasks = intent.taskTitles else { return IntentResponse(code: .failure) }
            let title = intent.targetTaskList ?? TasksNotes.reminders
            let items = NameMatch.splitTasks(tasks)
            // Stored as a day and a time: "in an hour" means an hour from now, not from when it is read.
            let due = intent.temporalEventTrigger?.fixed(at: Date()).description
            try await store.update { book in
                guard let i = book.lists.firstIndex(where: { $0.title == title }) else { return }
                book.lists[i].tasks += items.map { TaskList.Task(title: $0, due: due) }
            }
            var output = ["list": title, "added": items.joined(separator: ", ")]
            output["due"] = due
            return IntentResponse(code: .success,
                                  message: intent.temporalEventTrigger.map { "I'll remind you \($0.spokenDescription)." } ?? "It's on the \(title) list.",
                                  output: output)
        }
    }

    public struct SetTaskAttributeHandler: INSetTaskAttributeIntentHandling {
        public let store: NotebookStore

        public func resolveTargetTask(for intent: INSetTaskAttributeIntent) async throws -> Resolution<String> {
            guard let asked = intent.targetTask else { return .needsValue }
            let tasks = await store.notebook.lists.flatMap { $0.tasks.map(\.title) }
            return NameMatch.resolve(asked, among: tasks, none: "I couldn't find a task called \(asked).")
        }

        public func handle(intent: INSetTaskAttributeIntent) async throws -> IntentResponse {
            guard let task = intent.targetTask, let status = intent.status else { return IntentResponse(code: .failure) }
            try await store.update { book in
                for l in book.lists.indices {
                    for t in book.lists[l].tasks.indices where book.lists[l].tasks[t].title == task {
                        book.lists[l].tasks[t].completed = status == .completed
                    }
                }
            }
            return IntentResponse(code: .success, output: ["task": task, "status": status.rawValue])
        }
    }

    public struct CreateNoteHandler: INCreateNoteIntentHandling {
        public let store: NotebookStore

        public func handle(intent: INCreateNoteIntent) async throws -> IntentResponse {
            guard let content = intent.content else { return IntentResponse(code: .failure) }
            let title = intent.title ?? String(content.split(separator: " ").prefix(3).joined(separator: " "))
            try await store.update { $0.notes.append(Note(title: title, content: content)) }
            return IntentResponse(code: .success, output: ["note": title, "content": content])
        }
    }

    public struct AppendToNoteHandler: INAppendToNoteIntentHandling {
        public let store: NotebookStore

        public func resolveTargetNote(for intent: INAppendToNoteIntent) async throws -> Resolution<String> {
            guard let asked = intent.targetNote else { return .needsValue }
            return NameMatch.resolve(asked, among: await store.notebook.notes.map(\.title), none: "There's no note called \(asked).")
        }

        public func handle(intent: INAppendToNoteIntent) async throws -> IntentResponse {
            guard let title = intent.targetNote, let content = intent.content else { return IntentResponse(code: .failure) }
            try await store.update { book in
                guard let i = book.notes.firstIndex(where: { $0.title == title }) else { return }
                book.notes[i].content += "\n" + content
            }
            return IntentResponse(code: .success, output: ["note": title, "added": content])
        }
    }

    public struct SearchHandler: INSearchForNotebookItemsIntentHandling {
        public let store: NotebookStore

        public func resolveTitle(for intent: INSearchForNotebookItemsIntent) async throws -> Resolution<String> {
            guard let asked = intent.title else { return .needsValue }
            let book = await store.notebook
            return NameMatch.resolve(asked, among: book.lists.map(\.title) + book.notes.map(\.title),
                                     none: "I couldn't find \(asked) in TasksNotes.")
        }

        public func handle(intent: INSearchForNotebookItemsIntent) async throws -> IntentResponse {
            let book = await store.notebook
            if let list = book.lists.first(where: { $0.title == intent.title }) {
                return IntentResponse(code: .success, message: NotebookStore.describe(list), output: ["list": list.title])
            }
            if let note = book.notes.first(where: { $0.title == intent.title }) {
                return IntentResponse(code: .success, message: "It says: \(note.content)", output: ["note": note.title])
            }
            return IntentResponse(code: .failure)
        }
    }

    public static func handlers(_ store: NotebookStore) -> [String: any IntentHandler] {
        [
            "INCreateTaskListIntent": INCreateTaskListIntent.handler(CreateTaskListHandler(store: store)),
            "INAddTasksIntent": INAddTasksIntent.handler(AddTasksHandler(store: store)),
            "INSetTaskAttributeIntent": INSetTaskAttributeIntent.handler(SetTaskAttributeHandler(store: store)),
            "INCreateNoteIntent": INCreateNoteIntent.handler(CreateNoteHandler(store: store)),
            "INAppendToNoteIntent": INAppendToNoteIntent.handler(AppendToNoteHandler(store: store)),
            "INSearchForNotebookItemsIntent": INSearchForNotebookItemsIntent.handler(SearchHandler(store: store)),
        ]
    }
}
